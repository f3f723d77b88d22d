import { routingPathOf, targetKindsOf, type CommandType, type RoutingPath, type Target } from '@switchboard/contracts';
import { ApiError } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { normaliseAddress } from '@switchboard/addresses';
import { err, ok, type Result } from '../result.ts';

export const MAX_BODY_BYTES = 65_536;
export const MAX_DEPTH = 64;
export const MAX_PARTICIPANTS = 32;

export interface Envelope {
  target: Target;
  payload: Record<string, unknown>;
  routingPath: RoutingPath;
}

export type EnvelopeResult = Result<Envelope, ApiError>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Walks the parsed body without recursion (so nesting cannot exhaust the stack) and reports, in
 * the spec's order, a key that could poison a prototype when the object is merged or copied (at
 * any depth), then nesting past MAX_DEPTH, which later serialisation could not survive. The size
 * limit bounds the walk.
 */
function inspect(root: object): 'poisoned' | 'too_deep' | null {
  // Two stacks side by side rather than a pair per value: the walk runs on every command.
  const values: unknown[] = [root];
  const depths: number[] = [1];
  let tooDeep = false;
  while (values.length > 0) {
    const value = values.pop();
    const depth = depths.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) tooDeep = true;
    if (Array.isArray(value)) {
      for (const item of value) {
        values.push(item);
        depths.push(depth + 1);
      }
      continue;
    }
    for (const key in value) {
      if (!Object.hasOwn(value, key)) continue;
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') return 'poisoned';
      if (key === 'constructor' && isObject(child) && Object.hasOwn(child, 'prototype')) return 'poisoned';
      values.push(child);
      depths.push(depth + 1);
    }
  }
  return tooDeep ? 'too_deep' : null;
}

function conversationTarget(target: Record<string, unknown>): EnvelopeResult | Target {
  const id = target.conversationId;
  if (!isUuid(id)) {
    return err(new ApiError('invalid_conversationId', 'target.conversationId must be a UUID'));
  }
  return { kind: 'conversation', conversationId: id.toLowerCase() };
}

function recipientTarget(target: Record<string, unknown>, payload: Record<string, unknown>): EnvelopeResult | Target {
  if (!('recipientExternalId' in target) || !('text' in payload)) {
    return err(new ApiError('recipient_send_requires_recipientExternalId_and_text', 'a recipient send needs target.recipientExternalId and payload.text'));
  }
  const address = normaliseAddress(target.recipientExternalId);
  if (!address.ok) {
    const message = 'target.recipientExternalId is not a valid phone number (with country code) or email address';
    return err(new ApiError('invalid_recipient_address', message, { field: '/target/recipientExternalId', reason: address.reason }));
  }
  return { kind: 'recipient', recipientExternalId: address.address };
}

function participantsTarget(target: Record<string, unknown>): EnvelopeResult | Target {
  const ids = target.participantExternalIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_PARTICIPANTS) {
    return err(new ApiError('group_create_requires_participantExternalIds', `target.participantExternalIds must be an array of 1 to ${MAX_PARTICIPANTS} addresses`));
  }
  const normalised: string[] = [];
  for (const [index, id] of ids.entries()) {
    const address = normaliseAddress(id);
    if (!address.ok) {
      const message = `target.participantExternalIds[${index}] is not a valid phone number (with country code) or email address`;
      return err(new ApiError('invalid_participant_address', message, { field: `/target/participantExternalIds/${index}`, reason: address.reason }));
    }
    if (!normalised.includes(address.address)) normalised.push(address.address);
  }
  return { kind: 'participants', participantExternalIds: normalised };
}

/**
 * The endpoint's envelope checks, in the seed's order, then address validation. Nothing else of
 * the payload is looked at: the connector host validates it at execution time.
 */
export function checkEnvelope(type: CommandType, body: string): EnvelopeResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return err(new ApiError('body_not_object', 'the body is not valid JSON'));
  }
  if (!isObject(parsed)) return err(new ApiError('body_not_object', 'the body must be a JSON object'));
  const problem = inspect(parsed);
  if (problem === 'poisoned') return err(new ApiError('body_not_object', 'keys named __proto__ or constructor.prototype are not accepted'));
  if (problem === 'too_deep') return err(new ApiError('body_too_deep', `the body nests more than ${MAX_DEPTH} levels deep`));

  const { target, payload } = parsed;
  if (!isObject(target) || !isObject(payload)) {
    return err(new ApiError('target_and_payload_required', 'the body needs a target object and a payload object'));
  }
  const routingPath = typeof target.kind === 'string' ? routingPathOf(type, target.kind) : undefined;
  if (routingPath === undefined) {
    return err(new ApiError('unsupported_target', `${type} takes a target of kind ${targetKindsOf(type).map((k) => `"${k}"`).join(' or ')}`));
  }

  const resolved =
    target.kind === 'conversation' ? conversationTarget(target)
    : target.kind === 'recipient' ? recipientTarget(target, payload)
    : participantsTarget(target);
  if ('ok' in resolved) return resolved;

  // A recipient send forwards payload.text only; every other key is dropped here, silently.
  const stored = resolved.kind === 'recipient' ? { text: payload.text } : payload;
  return ok({ target: resolved, payload: stored, routingPath });
}
