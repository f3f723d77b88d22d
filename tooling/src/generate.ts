// Generates packages/contracts/src/generated/ from specs/: TypeScript types (openapi-typescript),
// zod 4 validators (@hey-api/openapi-ts, zod plugin only), bundled JSON documents and the code
// catalogs. Lints the specs first. Everything under generated/ is owned by this script.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { styleText } from 'node:util';
import { Parser } from '@asyncapi/parser';
import { createClient } from '@hey-api/openapi-ts';
import { bundle, loadConfig } from '@redocly/openapi-core';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { commandTableFile } from './command-table.ts';
import { lintSpecs } from './lint-specs.ts';
import { enumOf, isObject, oneOfConsts, readYaml, redoclyConfig, repoRoot, schemaOf, specs, type Json, type JsonObject } from './specs.ts';

export const outDir = join(repoRoot, 'packages/contracts/src/generated');

const header = (spec: string, tool: string) => `Generated from ${relative(repoRoot, spec)} by tooling (${tool}); do not edit.`;

/** Bundles an OpenAPI spec with its external $refs (connector → switchboard) into one document. */
async function bundleOpenApi(file: string): Promise<JsonObject> {
  const config = await loadConfig({ configPath: redoclyConfig });
  const result = await bundle({ ref: file, config, dereference: false });
  const errors = result.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(`bundling ${relative(repoRoot, file)}: ${errors.map((p) => p.message).join('; ')}`);
  return result.bundle.parsed as JsonObject;
}

/** The AsyncAPI `components.schemas`, wrapped in a minimal OpenAPI 3.1 document for the same generators. */
async function eventsDocument(): Promise<JsonObject> {
  const file = specs.events;
  const { document, diagnostics } = await new Parser().parse(readFileSync(file, 'utf8'), { source: file });
  if (!document) throw new Error(`${relative(repoRoot, file)}: ${diagnostics.map((d) => d.message).join('; ')}`);
  const schemas = structuredClone(schemaContainer(readYaml(file)));
  visit(schemas, (node) => {
    const ref = node['$ref'];
    if (typeof ref === 'string') {
      // Refs are local to the AsyncAPI document; only `#/components/schemas/X` has a counterpart in the wrapper.
      const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1];
      if (!name || !(name in schemas)) throw new Error(`${relative(repoRoot, file)}: cannot carry $ref ${ref} into the OpenAPI wrapper`);
      node['$ref'] = `#/components/schemas/${name}`;
    }
    // AsyncAPI writes `discriminator: type`; OpenAPI wants `discriminator: {propertyName: type}`.
    if (typeof node['discriminator'] === 'string') node['discriminator'] = { propertyName: node['discriminator'] };
  });
  return {
    openapi: '3.1.0',
    info: {
      title: `${document.info().title()}: event schemas`,
      version: document.info().version(),
      description: `The components.schemas of ${relative(repoRoot, file)}, as an OpenAPI document.`,
    },
    paths: {},
    components: { schemas },
  };
}

function schemaContainer(doc: JsonObject): JsonObject {
  const components = doc['components'];
  const schemas = isObject(components) ? components['schemas'] : undefined;
  if (!isObject(schemas)) throw new Error('no components.schemas');
  return schemas;
}

function visit(node: Json, fn: (node: JsonObject) => void): void {
  if (Array.isArray(node)) for (const item of node) visit(item, fn);
  else if (isObject(node)) {
    fn(node);
    for (const value of Object.values(node)) visit(value, fn);
  }
}

/**
 * Gives every discriminator without a `mapping` the explicit one its branches' `const`s imply.
 * Without it OpenAPI's implicit mapping (the schema names) applies, and openapi-typescript types
 * e.g. `kind: "ResolvedConversation"` instead of `kind: "conversation"`.
 */
function addDiscriminatorMappings(doc: JsonObject): void {
  const schemas = schemaContainer(doc);
  visit(doc, (node) => {
    const discriminator = node['discriminator'];
    const branches = node['oneOf'] ?? node['anyOf'];
    if (!isObject(discriminator) || discriminator['mapping'] || !Array.isArray(branches)) return;
    const property = String(discriminator['propertyName']);
    const mapping: JsonObject = {};
    for (const branch of branches) {
      const ref = isObject(branch) ? branch['$ref'] : undefined;
      const target = typeof ref === 'string' ? schemas[ref.replace('#/components/schemas/', '')] : undefined;
      const properties = isObject(target) ? target['properties'] : undefined;
      const value = isObject(properties) && isObject(properties[property]) ? properties[property]['const'] : undefined;
      if (typeof ref !== 'string' || typeof value !== 'string') {
        throw new Error(`discriminator on \`${property}\` without mapping: branch ${JSON.stringify(branch)} has no const ${property}`);
      }
      mapping[value] = ref;
    }
    discriminator['mapping'] = mapping;
  });
}

async function typesFile(doc: JsonObject, spec: string): Promise<string> {
  // defaultNonNullable: false keeps properties with a `default` optional; the schemas are shared
  // by requests (where a client may omit them) and responses.
  const ast = await openapiTS(structuredClone(doc) as unknown as OpenAPI3, { defaultNonNullable: false });
  return `// ${header(spec, 'openapi-typescript')}\n\n${astToString(ast).trimEnd()}\n`;
}

async function zodFiles(doc: JsonObject, spec: string, dir: string): Promise<void> {
  const contexts = await createClient({
    input: structuredClone(doc) as Record<string, unknown>,
    output: {
      path: dir,
      entryFile: false,
      header: () => [`// ${header(spec, '@hey-api/openapi-ts, zod plugin')}`],
      // Relative imports (none today, with one output file) as `.ts`: allowImportingTsExtensions +
      // rewriteRelativeImportExtensions make that work for tsc emit and for Node type stripping.
      module: { extension: '.ts' },
      tsConfigPath: join(repoRoot, 'tsconfig.base.json'),
    },
    // Any level but silent prints a progress banner; errors still throw, except input errors (below).
    logs: { level: 'silent', file: false },
    plugins: [
      {
        name: 'zod',
        // RFC 3339 date-times may carry an offset; zod rejects one unless told.
        dates: { offset: true },
        $resolvers: {
          // The zod plugin ignores `additionalProperties: false` on objects with properties
          // (and renders it as a record of never without): make both z.strictObject.
          object: (ctx) => {
            const extra = ctx.schema.additionalProperties;
            if (!extra || extra.type !== 'never') return undefined;
            return ctx.$(ctx.symbols.z).attr('strictObject').call(ctx.nodes.shape(ctx));
          },
        },
      },
    ],
  });
  if (contexts.length === 0) throw new Error(`@hey-api/openapi-ts rejected the document of ${relative(repoRoot, spec)} (set logs.level to 'debug' in zodFiles to see why)`);
}

/**
 * `uniqueItems`, which the zod plugin drops: a refinement on each component array that has it.
 * Only a component's own `uniqueItems` is carried over, so one anywhere else fails the generation.
 */
function uniqueItems(doc: JsonObject, code: string, file: string): string {
  const components = schemaContainer(doc);
  const own = Object.entries(components).filter(([, schema]) => isObject(schema) && schema['uniqueItems'] === true);
  const all = JSON.stringify(doc).split('"uniqueItems":true').length - 1;
  if (all !== own.length) throw new Error(`${file}: uniqueItems is carried over on component schemas only; move it to one`);
  for (const [name] of own) {
    const head = `export const z${name} = `;
    const start = code.indexOf(head);
    const end = code.indexOf(';\n', start);
    if (start === -1 || end === -1) throw new Error(`${file}: no z${name} to make unique`);
    code = `${code.slice(0, end)}.refine((items) => items == null || new Set(items).size === items.length, { message: 'items must be unique' })${code.slice(end)}`;
  }
  return code;
}

/** Fails if a component with a discriminator or `additionalProperties: false` lost it in zod. */
function checkZod(doc: JsonObject, code: string, file: string): void {
  for (const [name, schema] of Object.entries(schemaContainer(doc))) {
    if (!isObject(schema)) continue;
    const expected = schema['discriminator'] ? 'z.discriminatedUnion(' : schema['additionalProperties'] === false ? 'z.strictObject(' : undefined;
    if (expected && !code.includes(`export const z${name} = ${expected}`)) {
      throw new Error(`${file}: expected z${name} to be ${expected}...)`);
    }
  }
}

const str = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/** The ErrorCode branches (a `oneOf` of consts), each with its `x-status` and `x-retry` checked. */
function errorEntries(api: JsonObject): Array<{ code: string; status: number; entry: string }> {
  const codes = oneOfConsts(schemaOf(api, 'ErrorCode', specs.api), 'ErrorCode');
  const branches = schemaOf(api, 'ErrorCode', specs.api)['oneOf'] as JsonObject[];
  return branches.map((b, i) => {
    const code = codes[i]!;
    const status = httpStatus(b['x-status'], `ErrorCode ${code}`);
    const retry = b['x-retry'];
    if (retry !== 'never' && retry !== 'after' && retry !== 'backoff') throw new Error(`ErrorCode ${code}: x-retry must be never, after or backoff`);
    return { code, status, entry: `  ${code}: { status: ${status}, retry: ${str(retry)}, description: ${str(String(b['description'] ?? ''))} },` };
  });
}

function httpStatus(value: Json | undefined, where: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 400 || value > 599) throw new Error(`${where}: x-status must be a 4xx/5xx integer`);
  return value;
}

/** An enum of error codes (ConnectorErrorCode, AdminErrorCode), each code with its status from the schema's `x-status` map. */
function statusEnumEntries(doc: JsonObject, name: string, file: string): Array<{ code: string; status: number; entry: string }> {
  const schema = schemaOf(doc, name, file);
  const codes = enumOf(schema, name);
  const statuses = schema['x-status'];
  if (!isObject(statuses)) throw new Error(`${name}: expected an x-status map of code to status`);
  const extra = Object.keys(statuses).filter((c) => !codes.includes(c));
  if (extra.length) throw new Error(`${name}: x-status names codes the enum does not have: ${extra.join(', ')}`);
  return codes.map((code) => {
    const status = httpStatus(statuses[code], `${name} ${code}`);
    return { code, status, entry: `  ${code}: { status: ${status} },` };
  });
}

function catalogFile(api: JsonObject, connector: JsonObject, admin: JsonObject): string {
  const errors = errorEntries(api);
  const connectorErrors = statusEnumEntries(connector, 'ConnectorErrorCode', specs.connector);
  const adminErrors = statusEnumEntries(admin, 'AdminErrorCode', specs.admin);
  for (const [name, entries] of [['ConnectorErrorCode', connectorErrors], ['AdminErrorCode', adminErrors]] as const) {
    for (const { code, status } of entries) {
      const shared = errors.find((e) => e.code === code);
      if (shared && shared.status !== status) throw new Error(`${name} ${code}: x-status ${status} differs from the public API's ${shared.status}`);
    }
  }
  const settlementCodes = oneOfConsts(schemaOf(api, 'SettlementCode', specs.api), 'SettlementCode');
  const settlementEntries = (schemaOf(api, 'SettlementCode', specs.api)['oneOf'] as JsonObject[]).map((b) => `  ${b['const']}: { description: ${str(String(b['description'] ?? ''))} },`);
  const list = (codes: string[]) => codes.map((c) => `  ${str(c)},`).join('\n');
  return `// Generated from specs/ by tooling; do not edit.
// Source: ${relative(repoRoot, specs.api)} (components.schemas.ErrorCode and SettlementCode) and
// ${relative(repoRoot, specs.connector)} (components.schemas.ConnectorErrorCode) and
// ${relative(repoRoot, specs.admin)} (components.schemas.AdminErrorCode).

export const errorCodes = [
${list(errors.map((e) => e.code))}
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorCatalog: Record<ErrorCode, { status: number; retry: 'never' | 'after' | 'backoff'; description: string }> = {
${errors.map((e) => e.entry).join('\n')}
};

export const settlementCodes = [
${list(settlementCodes)}
] as const;

export type SettlementCode = (typeof settlementCodes)[number];

export const settlementCatalog: Record<SettlementCode, { description: string }> = {
${settlementEntries.join('\n')}
};

/** The connector protocol's error codes; those it shares with the public API carry the same status. */
export const connectorErrorCodes = [
${list(connectorErrors.map((e) => e.code))}
] as const;

export type ConnectorErrorCode = (typeof connectorErrorCodes)[number];

export const connectorErrorCatalog: Record<ConnectorErrorCode, { status: number }> = {
${connectorErrors.map((e) => e.entry).join('\n')}
};

/** The admin API's error codes; those it shares with the public API carry the same status. */
export const adminErrorCodes = [
${list(adminErrors.map((e) => e.code))}
] as const;

export type AdminErrorCode = (typeof adminErrorCodes)[number];

export const adminErrorCatalog: Record<AdminErrorCode, { status: number }> = {
${adminErrors.map((e) => e.entry).join('\n')}
};
`;
}

export async function generate(): Promise<void> {
  const docs = {
    api: await bundleOpenApi(specs.api),
    connector: await bundleOpenApi(specs.connector),
    admin: await bundleOpenApi(specs.admin),
    events: await eventsDocument(),
  };
  for (const doc of Object.values(docs)) addDiscriminatorMappings(doc);

  // Build everything in a scratch folder first, so a failure leaves generated/ as it was.
  const scratch = mkdtempSync(join(tmpdir(), 'switchboard-generate-'));
  try {
    const jsonNames = { api: 'openapi.json', connector: 'connector.openapi.json', admin: 'admin.openapi.json', events: 'events.openapi.json' };
    for (const [folder, doc] of Object.entries(docs) as Array<[keyof typeof docs, JsonObject]>) {
      const spec = specs[folder];
      const dir = join(scratch, folder);
      await zodFiles(doc, spec, dir);
      const zodFile = join(dir, 'zod.gen.ts');
      writeFileSync(zodFile, uniqueItems(doc, readFileSync(zodFile, 'utf8'), `${folder}/zod.gen.ts`));
      checkZod(doc, readFileSync(zodFile, 'utf8'), `${folder}/zod.gen.ts`);
      writeFileSync(join(dir, 'types.ts'), await typesFile(doc, spec));
      const how = folder === 'events' ? 'components.schemas wrapped as OpenAPI 3.1' : '@redocly/openapi-core bundle';
      const json = { 'x-generated': header(spec, how), ...doc };
      writeFileSync(join(scratch, jsonNames[folder]), `${JSON.stringify(json, null, 2)}\n`);
    }
    writeFileSync(join(scratch, 'catalog.ts'), catalogFile(docs.api, docs.connector, docs.admin));
    writeFileSync(join(scratch, 'commands.ts'), commandTableFile(docs.api, docs.events));

    // Replace generated/ wholesale so files of removed schemas or specs disappear.
    if (relative(repoRoot, outDir) !== join('packages', 'contracts', 'src', 'generated')) throw new Error(`refusing to replace ${outDir}`);
    rmSync(outDir, { recursive: true, force: true });
    cpSync(scratch, outDir, { recursive: true });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(styleText('green', `Generated ${relative(repoRoot, outDir)}/`));
}

if (import.meta.main) {
  if (!(await lintSpecs())) process.exit(1);
  await generate();
}
