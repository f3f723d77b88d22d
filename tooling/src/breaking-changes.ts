/**
 * Finds the changes between two versions of the specs that break clients. api-smart-diff
 * classifies OpenAPI changes with request/response awareness (a new required request field, a
 * narrowed request enum: breaking); two gaps are closed here:
 *
 * - api-smart-diff calls removing a response property (or its `required`) non-breaking. A client
 *   that reads the field breaks, so here it is breaking.
 * - api-smart-diff reports a media range (any type, `*` slash `*`) in a content map as removed and added
 *   again even between a spec and itself; an identical remove-and-add is no change.
 * - AsyncAPI 3 is not supported by api-smart-diff yet, so the response stream's messages are
 *   compared as the responses of a synthetic OpenAPI document: what the service sends a client
 *   is judged as a response is.
 */
import { apiCompare } from 'api-smart-diff';
import { isObject, type Json, type JsonObject } from './specs.ts';

export interface BreakingChange {
  /** Where, in the client's terms: `POST /v1/commands/message.send request body`, or a schema. */
  where: string;
  description: string;
}

type Segment = string | number;

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace']);

function locate(path: readonly Segment[]): string {
  if (path[0] === 'paths') {
    const [, route, method, part, status] = path;
    const operation = METHODS.has(String(method)) ? `${String(method).toUpperCase()} ${String(route)}` : String(route);
    if (part === 'requestBody') return `${operation} request body`;
    if (part === 'responses') return `${operation} ${String(status)} response`;
    if (part === 'parameters') return `${operation} parameters`;
    return operation;
  }
  return path.slice(0, 3).join('.');
}

/** A property, or a property's `required` status, taken away from what a response may carry. */
function isResponseFieldRemoval(path: readonly Segment[], action: string): boolean {
  if (path[0] !== 'paths' || action !== 'remove' || !path.includes('responses')) return false;
  const parent = path[path.length - 2];
  return parent === 'properties' || parent === 'required';
}

/** Every components.schemas name reachable from `paths`, following $refs. */
function reachableSchemas(doc: JsonObject): Set<string> {
  const seen = new Set<string>();
  const schemas = isObject(doc.components) && isObject(doc.components.schemas) ? doc.components.schemas : {};
  const walk = (node: Json | undefined): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!isObject(node)) return;
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const name = ref.slice('#/components/schemas/'.length);
      if (!seen.has(name)) {
        seen.add(name);
        walk(schemas[name]);
      }
    }
    for (const value of Object.values(node)) walk(value);
  };
  walk(doc.paths);
  return seen;
}

/**
 * The breaking changes from `before` to `after` (OpenAPI 3). Reported once per operation:
 * api-smart-diff also reports each change at every schema that embeds it, which says nothing
 * new. Schemas no operation reaches (the error-code catalog) are reported by name.
 */
export function openApiBreakingChanges(before: JsonObject, after: JsonObject): BreakingChange[] {
  const { diffs } = apiCompare(before, after);
  const reachable = new Set([...reachableSchemas(before), ...reachableSchemas(after)]);
  const found = new Map<string, BreakingChange>();
  const key = (path: readonly Segment[], value: unknown) => `${path.join('\u0000')}\u0001${JSON.stringify(value)}`;
  const readded = new Set(diffs.filter((d) => d.action === 'add').map((d) => key(d.path as Segment[], d.after)));
  for (const diff of diffs) {
    const path = diff.path as Segment[];
    if (diff.action === 'remove' && path[path.length - 2] === 'content' && readded.has(key(path, diff.before))) continue;
    const breaking = diff.type === 'breaking' || isResponseFieldRemoval(path, diff.action);
    if (!breaking) continue;
    if (path[0] === 'components' && path[1] === 'schemas' && reachable.has(String(path[2]))) continue;
    if (path[0] === 'components' && path[1] !== 'schemas') continue;
    const where = locate(path);
    const description = (diff.description ?? '').replace(/\s+in (Request Body|Response \d+) content \([^)]*\)$/, '').trim() || `${diff.action} ${path.slice(3).join('.')}`;
    found.set(`${where}\u0000${description}`, { where, description });
  }
  return [...found.values()];
}

/**
 * The AsyncAPI document's messages as responses of a synthetic OpenAPI document
 * (`GET /stream/<message name>` answering the message's payload), so api-smart-diff judges them
 * as what the service sends.
 */
export function streamAsOpenApi(asyncapi: JsonObject): JsonObject {
  const components = isObject(asyncapi.components) ? asyncapi.components : {};
  const messages = isObject(components.messages) ? components.messages : {};
  const paths: JsonObject = {};
  for (const [key, message] of Object.entries(messages)) {
    if (!isObject(message) || !isObject(message.payload)) continue;
    const name = typeof message.name === 'string' ? message.name : key;
    paths[`/stream/${name}`] = { get: { responses: { '200': { description: name, content: { 'application/json': { schema: message.payload } } } } } };
  }
  return { openapi: '3.0.3', info: { title: 'stream', version: '0' }, paths, components: { schemas: isObject(components.schemas) ? components.schemas : {} } };
}

/**
 * Inlines `<file>#/components/schemas/<Name>` references to another spec, as
 * `#/components/schemas/<file>.<Name>`, with every schema they reach. api-smart-diff needs one
 * self-contained document.
 */
export function bundle(doc: JsonObject, externals: Record<string, JsonObject>): JsonObject {
  const added: JsonObject = {};
  const rewrite = (node: Json, file: string | null): Json => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, file));
    if (!isObject(node)) return node;
    const copy: JsonObject = {};
    for (const [key, value] of Object.entries(node)) {
      const [target, pointer = ''] = typeof value === 'string' ? value.split('#') : [];
      const source = target ? target.replace(/^\.\//, '') : file;
      if (key !== '$ref' || source === null || source === undefined || !pointer.startsWith('/components/schemas/')) {
        copy[key] = rewrite(value, file);
        continue;
      }
      const name = pointer.slice('/components/schemas/'.length);
      const bundled = `${source}.${name}`;
      if (!(bundled in added)) {
        const external = externals[source];
        const schema = isObject(external?.components) && isObject(external.components.schemas) ? external.components.schemas[name] : undefined;
        if (schema === undefined) throw new Error(`cannot resolve $ref ${String(value)}`);
        added[bundled] = {};
        added[bundled] = rewrite(schema, source);
      }
      copy[key] = `#/components/schemas/${bundled}`;
    }
    return copy;
  };
  const out = rewrite(doc, null) as JsonObject;
  const components = isObject(out.components) ? out.components : {};
  return { ...out, components: { ...components, schemas: { ...(isObject(components.schemas) ? components.schemas : {}), ...added } } };
}

/** The packages that the changesets (`.changeset/*.md` contents) bump by a major version. */
export function majorBumps(changesets: string[]): string[] {
  const packages = new Set<string>();
  for (const text of changesets) {
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? '';
    for (const line of front.split(/\r?\n/)) {
      const match = /^\s*["']?([^"':]+)["']?\s*:\s*["']?major["']?\s*$/.exec(line);
      if (match) packages.add(match[1]!.trim());
    }
  }
  return [...packages];
}
