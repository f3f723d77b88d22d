import type { CommandType, RoutingPath } from './types.ts';

// The decision of specs/openapi/switchboard.yaml ("Routing paths"): conversational acts an agent
// repeats on retry take the agent-turn path and honour Idempotency-Key; account administration
// takes the admin path and ignores it.
const AGENT_TURN: ReadonlySet<CommandType> = new Set(['reaction.tapback', 'reaction.apply', 'name_photo.share']);

/** The routing path the service takes for a command of `type` aimed at `target`. */
export function routingPathOf(type: CommandType, target: { kind: string }): RoutingPath {
  if (type === 'message.send') return target.kind === 'conversation' ? 'agent-turn' : 'admin';
  return AGENT_TURN.has(type) ? 'agent-turn' : 'admin';
}
