import { commandTable } from './generated/commands.ts';

export { commandTable, isEventId, isIdempotencyKey } from './generated/commands.ts';

export type CommandTable = typeof commandTable;

/** The target kinds a command of `type` takes, in the spec's order. */
export function targetKindsOf(type: keyof CommandTable): string[] {
  return Object.keys(commandTable[type].routingPath);
}

/** The routing path of a command of `type` aimed at a target of `kind`; undefined when `type` does not take that kind. */
export function routingPathOf(type: keyof CommandTable, kind: string): 'agent-turn' | 'admin' | undefined {
  const paths: { readonly [kind: string]: 'agent-turn' | 'admin' } = commandTable[type].routingPath;
  return Object.hasOwn(paths, kind) ? paths[kind] : undefined;
}
