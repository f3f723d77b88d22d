/**
 * The tool input schemas as clients read them in tools/list. A property whose JSON Schema is an
 * anyOf/oneOf with no top-level `type` is one a client keying on `type` cannot place: the MCP
 * Inspector 0.15 sends it as a string, and the call fails with -32602 "Invalid input at payload".
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { commandTools } from '../src/index.ts';
import { listedTools } from './support/memory.ts';

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[]; [key: string]: unknown };

/** The JSON types a schema's branches can take (undefined when a branch does not say). */
function branchTypes(schema: JsonSchema): string[] | undefined {
  if (schema.type !== undefined) return [schema.type].flat();
  const branches = schema.anyOf ?? schema.oneOf;
  if (!branches) return undefined;
  const types = branches.map(branchTypes);
  return types.some((t) => t === undefined) ? undefined : [...new Set(types.flatMap((t) => t!))];
}

describe('tool input schemas in tools/list', () => {
  it('give every anyOf/oneOf property a top-level type, the one its branches share', async () => {
    const tools = await listedTools();
    const unions: string[] = [];
    for (const tool of tools) {
      for (const [name, property] of Object.entries((tool.inputSchema.properties ?? {}) as Record<string, JsonSchema>)) {
        if (!property.anyOf && !property.oneOf) continue;
        const where = `${tool.name}.${name}`;
        unions.push(where);
        expect(property.type, `${where} has ${property.anyOf ? 'anyOf' : 'oneOf'} and no type`).toBeDefined();
        const { type, ...branches } = property;
        expect([type].flat().sort(), where).toEqual(branchTypes(branches)?.sort());
      }
    }
    // The union payloads are all checked (the loop above is not vacuous).
    expect(unions).toEqual(expect.arrayContaining(['message_send.payload', 'group_update.payload', 'send_rich_to_new_contact.payload']));
  });

  it("keep each command tool's payload as strict as the contracts' schema: the same branches, with only the type beside them", async () => {
    const tools = await listedTools();
    for (const tool of commandTools) {
      const { $schema: _, ...contract } = z.toJSONSchema(tool.payload, { target: 'draft-7', io: 'input' }) as JsonSchema;
      const listed = tools.find((t) => t.name === tool.name)!.inputSchema.properties!.payload;
      expect(listed, tool.name).toEqual({ type: 'object', ...contract });
    }
  });
});
