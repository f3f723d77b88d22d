import * as z from 'zod';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };

/** The JSON types a schema can take, from its own `type` or its branches' (undefined when one does not say). */
function typesOf(schema: JsonSchema): string[] | undefined {
  if (schema.type !== undefined) return [schema.type].flat();
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const types = branches.map(typesOf);
  return types.some((t) => t === undefined) ? undefined : [...new Set(types.flatMap((t) => t!))];
}

/**
 * A property as clients read it in tools/list. zod writes a union as an anyOf (a discriminated
 * union as a oneOf) with no top-level `type`, and a client that keys on `type` cannot place it:
 * the MCP Inspector sends such a payload as a string, and the call fails with -32602 "Invalid
 * input at payload". This states the type the branches share (`"object"` for every payload)
 * beside the anyOf/oneOf, as metadata: the branches, and what the server accepts, are unchanged.
 */
function typed(schema: z.core.$ZodType): z.core.$ZodType {
  // `.meta()`, not `z.core` at run time: reading the `core` namespace keeps all of it in the bin (~55 KB gzipped).
  if (!(schema instanceof z.ZodType)) return schema;
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonSchema;
  if (json.type !== undefined || (!json.anyOf && !json.oneOf)) return schema;
  const types = typesOf(json);
  if (types === undefined) return schema;
  // A copy with the type as metadata; the original's description carries over.
  return schema.meta({ type: types.length === 1 ? types[0] : types });
}

/** A tool's input schema: a strict object of `shape`, each union property with its top-level type. */
export function toolInput<S extends z.ZodRawShape>(shape: S): z.ZodObject<S, z.core.$strict> {
  // Each property is the same schema, or a copy of it with metadata: its type is unchanged.
  const properties = Object.fromEntries(Object.entries(shape).map(([name, schema]) => [name, typed(schema)])) as unknown as S;
  return z.strictObject(properties);
}
