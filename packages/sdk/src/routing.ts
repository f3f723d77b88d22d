import { commandTable, routingPathOf as pathForKind } from '@switchboard/contracts/catalog';
import type { CommandType, RoutingPath } from './types.ts';

/**
 * The routing path the service takes for a command of `type` aimed at `target`, from the
 * contracts' command table (specs/openapi/switchboard.yaml, `x-routing-path`). A target kind the
 * type does not take is refused by the service; it gets the path of the type's last kind.
 */
export function routingPathOfTarget(type: CommandType, target: { kind: string }): RoutingPath {
  const paths: Readonly<Record<string, RoutingPath>> = commandTable[type].routingPath;
  return pathForKind(type, target.kind) ?? Object.values(paths).at(-1)!;
}

/** @deprecated use routingPathOfTarget */
export const routingPathOf = routingPathOfTarget;
