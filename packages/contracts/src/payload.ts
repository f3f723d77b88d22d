import { zRichPayload, zTextPayload } from './generated/api/zod.gen.ts';

/**
 * The branch of message.send's payload (TextPayload | RichPayload) a payload has to match. Only
 * the rich kinds have `kind` and plain text is strict, so at most one branch can match: checking
 * that one alone accepts the same payloads and names the field at fault.
 */
export function messagePayloadSchema(payload: unknown): typeof zRichPayload | typeof zTextPayload {
  return typeof payload === 'object' && payload !== null && 'kind' in payload ? zRichPayload : zTextPayload;
}
