// Generated from specs/ by tooling; do not edit.
// Source: specs/openapi/switchboard.yaml (each command operation's x-routing-path and
// x-conversation-kind, the target kinds of its request body, components.parameters.IdempotencyKey)
// and specs/asyncapi/stream.yaml (components.schemas.EventId).

/**
 * Per command type: its routing path by target kind (the kinds it takes, in the spec's order),
 * and the conversation kind a conversation target must have (null: either).
 */
export const commandTable = {
  'message.send': { routingPath: { conversation: 'agent-turn', recipient: 'admin' }, conversationKind: null },
  'reaction.tapback': { routingPath: { conversation: 'agent-turn' }, conversationKind: null },
  'reaction.apply': { routingPath: { conversation: 'agent-turn' }, conversationKind: null },
  'name_photo.share': { routingPath: { conversation: 'agent-turn' }, conversationKind: null },
  'group.create': { routingPath: { participants: 'admin' }, conversationKind: null },
  'group.update': { routingPath: { conversation: 'admin' }, conversationKind: 'group' },
  'group.leave': { routingPath: { conversation: 'admin' }, conversationKind: 'group' },
} as const;

const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7E]+$/;

/** An Idempotency-Key the agent-turn path honours (components.parameters.IdempotencyKey). */
export function isIdempotencyKey(value: string): boolean {
  return value.length >= 1 && value.length <= 255 && IDEMPOTENCY_KEY_PATTERN.test(value);
}

const EVENT_ID_PATTERN = /^[0-9]{1,19}$/;

/** An event id (the stream's EventId): the cursor of GET /v1/events. */
export function isEventId(value: string): boolean {
  return EVENT_ID_PATTERN.test(value);
}
