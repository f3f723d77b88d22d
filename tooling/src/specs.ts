import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const redoclyConfig = join(repoRoot, 'redocly.yaml');
export const specs = {
  api: join(repoRoot, 'specs/openapi/switchboard.yaml'),
  connector: join(repoRoot, 'specs/openapi/connector.yaml'),
  admin: join(repoRoot, 'specs/openapi/admin.yaml'),
  events: join(repoRoot, 'specs/asyncapi/stream.yaml'),
} as const;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function readYaml(file: string): JsonObject {
  return parse(readFileSync(file, 'utf8')) as JsonObject;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `components.schemas[name]` of a parsed spec, or a thrown error naming what is missing. */
export function schemaOf(doc: JsonObject, name: string, file: string): JsonObject {
  const components = doc['components'];
  const schemas = isObject(components) ? components['schemas'] : undefined;
  const schema = isObject(schemas) ? schemas[name] : undefined;
  if (!isObject(schema)) throw new Error(`${file}: no components.schemas.${name}`);
  return schema;
}

/** The `const` of every branch of a `oneOf` of consts (how ErrorCode and SettlementCode are written). */
export function oneOfConsts(schema: JsonObject, where: string): string[] {
  const branches = schema['oneOf'];
  if (!Array.isArray(branches)) throw new Error(`${where}: expected a oneOf of consts`);
  return branches.map((branch, i) => {
    const value = isObject(branch) ? branch['const'] : undefined;
    if (typeof value !== 'string') throw new Error(`${where}: oneOf[${i}] has no string const`);
    return value;
  });
}

export function enumOf(schema: JsonObject, where: string): string[] {
  const values = schema['enum'];
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string')) {
    throw new Error(`${where}: expected an enum of strings`);
  }
  return values as string[];
}
