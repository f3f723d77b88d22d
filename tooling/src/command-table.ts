// The command table of packages/contracts/src/generated/commands.ts: per command type, the routing
// path by target kind (x-routing-path on its operation; the kinds are those its request body's
// `target` allows) and the conversation kind it needs (x-conversation-kind), with the
// Idempotency-Key and event-id rules. Server, connector and SDK import it instead of restating it.
import { relative } from 'node:path';
import { enumOf, isObject, repoRoot, schemaOf, specs, type Json, type JsonObject } from './specs.ts';

const PREFIX = '/v1/commands/';
const ROUTING_PATHS = new Set(['agent-turn', 'admin']);

function refName(node: Json | undefined, where: string): string {
  const ref = isObject(node) ? node['$ref'] : undefined;
  const name = typeof ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1] : undefined;
  if (!name) throw new Error(`${where}: expected a $ref to a component schema`);
  return name;
}

/** The `kind` consts of the targets a request body allows, in the spec's order. */
function targetKinds(api: JsonObject, body: string): string[] {
  const schema = schemaOf(api, body, specs.api);
  const branches = Array.isArray(schema['oneOf']) ? schema['oneOf'].map((b) => schemaOf(api, refName(b, body), specs.api)) : [schema];
  return branches.map((branch) => {
    const properties = branch['properties'];
    const target = schemaOf(api, refName(isObject(properties) ? properties['target'] : undefined, `${body}.target`), specs.api);
    const targetProperties = target['properties'];
    const kind = isObject(targetProperties) && isObject(targetProperties['kind']) ? targetProperties['kind']['const'] : undefined;
    if (typeof kind !== 'string') throw new Error(`${body}: its target has no const kind`);
    return kind;
  });
}

/** The schema of a parameter or component, for its string rule. */
function stringRule(schema: JsonObject, where: string): { pattern: string; minLength: number | null; maxLength: number | null } {
  const pattern = schema['pattern'];
  if (typeof pattern !== 'string') throw new Error(`${where}: expected a pattern`);
  const bound = (key: string) => (typeof schema[key] === 'number' ? (schema[key] as number) : null);
  return { pattern, minLength: bound('minLength'), maxLength: bound('maxLength') };
}

function predicate(name: string, doc: string, rule: ReturnType<typeof stringRule>): string {
  const constName = `${name.replace(/[a-z](?=[A-Z])/g, '$&_').toUpperCase()}_PATTERN`;
  const checks = [
    rule.minLength === null ? null : `value.length >= ${rule.minLength}`,
    rule.maxLength === null ? null : `value.length <= ${rule.maxLength}`,
    `${constName}.test(value)`,
  ].filter(Boolean);
  return `const ${constName} = /${rule.pattern.replace(/\//g, '\\/')}/;

/** ${doc} */
export function is${name}(value: string): boolean {
  return ${checks.join(' && ')};
}`;
}

export function commandTableFile(api: JsonObject, events: JsonObject): string {
  const types = enumOf(schemaOf(api, 'CommandType', specs.api), 'CommandType');
  const paths = api['paths'];
  if (!isObject(paths)) throw new Error(`${specs.api}: no paths`);
  const rows = types.map((type) => {
    const post = isObject(paths[PREFIX + type]) ? (paths[PREFIX + type] as JsonObject)['post'] : undefined;
    if (!isObject(post)) throw new Error(`${specs.api}: no POST ${PREFIX}${type} for command type ${type}`);
    const where = `POST ${PREFIX}${type}`;
    const content = isObject(post['requestBody']) ? post['requestBody']['content'] : undefined;
    const json = isObject(content) ? content['application/json'] : undefined;
    const kinds = targetKinds(api, refName(isObject(json) ? json['schema'] : undefined, `${where} request body`));
    const declared = post['x-routing-path'];
    const byKind: Record<string, string> = {};
    for (const kind of kinds) {
      const path = typeof declared === 'string' ? declared : isObject(declared) ? declared[kind] : undefined;
      if (typeof path !== 'string' || !ROUTING_PATHS.has(path)) throw new Error(`${where}: x-routing-path gives no routing path (agent-turn or admin) for target kind ${kind}`);
      byKind[kind] = path;
    }
    if (isObject(declared)) {
      const extra = Object.keys(declared).filter((k) => !kinds.includes(k));
      if (extra.length) throw new Error(`${where}: x-routing-path names target kinds the request body does not take: ${extra.join(', ')}`);
    }
    const conversationKind = post['x-conversation-kind'] ?? null;
    if (conversationKind !== null && conversationKind !== 'group' && conversationKind !== 'direct') throw new Error(`${where}: x-conversation-kind must be group or direct`);
    if (conversationKind !== null && !kinds.includes('conversation')) throw new Error(`${where}: x-conversation-kind on a command that takes no conversation target`);
    const routes = Object.entries(byKind).map(([k, p]) => `${k}: '${p}'`).join(', ');
    return `  '${type}': { routingPath: { ${routes} }, conversationKind: ${conversationKind === null ? 'null' : `'${conversationKind}'`} },`;
  });
  const extraPaths = Object.keys(paths).filter((p) => p.startsWith(PREFIX) && !p.includes('{') && !types.includes(p.slice(PREFIX.length)));
  if (extraPaths.length) throw new Error(`${specs.api}: command paths for no CommandType: ${extraPaths.join(', ')}`);

  const components = api['components'];
  const parameters = isObject(components) ? components['parameters'] : undefined;
  const keyParam = isObject(parameters) ? parameters['IdempotencyKey'] : undefined;
  if (!isObject(keyParam) || !isObject(keyParam['schema'])) throw new Error(`${specs.api}: no components.parameters.IdempotencyKey schema`);
  const idempotencyKey = stringRule(keyParam['schema'], 'components.parameters.IdempotencyKey');
  const eventId = stringRule(schemaOf(events, 'EventId', specs.events), 'EventId');

  return `// Generated from specs/ by tooling; do not edit.
// Source: ${relative(repoRoot, specs.api)} (each command operation's x-routing-path and
// x-conversation-kind, the target kinds of its request body, components.parameters.IdempotencyKey)
// and ${relative(repoRoot, specs.events)} (components.schemas.EventId).

/**
 * Per command type: its routing path by target kind (the kinds it takes, in the spec's order),
 * and the conversation kind a conversation target must have (null: either).
 */
export const commandTable = {
${rows.join('\n')}
} as const;

${predicate('IdempotencyKey', 'An Idempotency-Key the agent-turn path honours (components.parameters.IdempotencyKey).', idempotencyKey)}

${predicate('EventId', "An event id (the stream's EventId): the cursor of GET /v1/events.", eventId)}
`;
}
