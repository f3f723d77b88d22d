import type { CommandType, ErrorCode, RoutingPath } from '@switchboard/contracts';
import type { StoredTarget } from '../store/types.ts';
import { normaliseAddress, type AddressReason } from './address.ts';
import { isUuid } from '../clock.ts';

export const MAX_BODY_BYTES = 65_536;
export const MAX_DEPTH = 64;
export const MAX_PARTICIPANTS = 32;

export interface Envelope {
  target: StoredTarget;
  payload: Record<string, unknown>;
  routingPath: RoutingPath;
}

export type EnvelopeRejection =
  | { status: 400; error: ErrorCode; message: string }
  | { status: 422; error: 'invalid_recipient_address' | 'invalid_participant_address'; message: string; field: string; reason: AddressReason };

export type EnvelopeResult = { ok: true; envelope: Envelope } | { ok: false; rejection: EnvelopeRejection };


const TARGET_KINDS: Record<CommandType, readonly string[]> = {
  'message.send': ['conversation', 'recipient'],
  'reaction.tapback': ['conversation'],
  'reaction.apply': ['conversation'],
  'name_photo.share': ['conversation'],
  'group.create': ['participants'],
  'group.update': ['conversation'],
  'group.leave': ['conversation'],
};

const AGENT_TURN_TYPES: ReadonlySet<CommandType> = new Set(['reaction.tapback', 'reaction.apply', 'name_photo.share']);

/** The routing path, as specs/openapi/switchboard.yaml decides it for every type and target. */
export function routingPathOf(type: CommandType, targetKind: StoredTarget['kind']): RoutingPath {
  if (type === 'message.send') return targetKind === 'conversation' ? 'agent-turn' : 'admin';
  return AGENT_TURN_TYPES.has(type) ? 'agent-turn' : 'admin';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function reject(error: ErrorCode, message: string): EnvelopeResult {
  return { ok: false, rejection: { status: 400, error, message } };
}

/**
 * Walks the parsed body without recursion (so nesting cannot exhaust the stack) and reports, in
 * the spec's order, a key that could poison a prototype when the object is merged or copied (at
 * any depth), then nesting past MAX_DEPTH, which later serialisation could not survive. The size
 * limit bounds the walk.
 */
function inspect(root: object): 'poisoned' | 'too_deep' | null {
  const stack: Array<[unknown, number]> = [[root, 1]];
  let tooDeep = false;
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth > MAX_DEPTH) tooDeep = true;
    if (Array.isArray(value)) {
      for (const item of value) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__') return 'poisoned';
      if (key === 'constructor' && isObject(child) && Object.hasOwn(child, 'prototype')) return 'poisoned';
      stack.push([child, depth + 1]);
    }
  }
  return tooDeep ? 'too_deep' : null;
}

function conversationTarget(target: Record<string, unknown>): EnvelopeResult | StoredTarget {
  const id = target.conversationId;
  if (!isUuid(id)) {
    return reject('invalid_conversationId', 'target.conversationId must be a UUID');
  }
  return { kind: 'conversation', conversationId: id.toLowerCase() };
}

function recipientTarget(target: Record<string, unknown>, payload: Record<string, unknown>): EnvelopeResult | StoredTarget {
  if (!('recipientExternalId' in target) || !('text' in payload)) {
    return reject('recipient_send_requires_recipientExternalId_and_text', 'a recipient send needs target.recipientExternalId and payload.text');
  }
  const address = normaliseAddress(target.recipientExternalId);
  if (!address.ok) {
    return {
      ok: false,
      rejection: {
        status: 422, error: 'invalid_recipient_address', field: '/target/recipientExternalId', reason: address.reason,
        message: 'target.recipientExternalId is not a valid phone number (with country code) or email address',
      },
    };
  }
  return { kind: 'recipient', recipientExternalId: address.address };
}

function participantsTarget(target: Record<string, unknown>): EnvelopeResult | StoredTarget {
  const ids = target.participantExternalIds;
  if (!Array.isArray(ids) || ids.length === 0 || ids.length > MAX_PARTICIPANTS) {
    return reject('group_create_requires_participantExternalIds', `target.participantExternalIds must be an array of 1 to ${MAX_PARTICIPANTS} addresses`);
  }
  const normalised: string[] = [];
  for (const [index, id] of ids.entries()) {
    const address = normaliseAddress(id);
    if (!address.ok) {
      return {
        ok: false,
        rejection: {
          status: 422, error: 'invalid_participant_address', field: `/target/participantExternalIds/${index}`, reason: address.reason,
          message: `target.participantExternalIds[${index}] is not a valid phone number (with country code) or email address`,
        },
      };
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
    return reject('body_not_object', 'the body is not valid JSON');
  }
  if (!isObject(parsed)) return reject('body_not_object', 'the body must be a JSON object');
  const problem = inspect(parsed);
  if (problem === 'poisoned') return reject('body_not_object', 'keys named __proto__ or constructor.prototype are not accepted');
  if (problem === 'too_deep') return reject('body_too_deep', `the body nests more than ${MAX_DEPTH} levels deep`);

  const { target, payload } = parsed;
  if (!isObject(target) || !isObject(payload)) {
    return reject('target_and_payload_required', 'the body needs a target object and a payload object');
  }
  const allowed = TARGET_KINDS[type];
  if (typeof target.kind !== 'string' || !allowed.includes(target.kind)) {
    return reject('unsupported_target', `${type} takes a target of kind ${allowed.map((k) => `"${k}"`).join(' or ')}`);
  }

  const resolved =
    target.kind === 'conversation' ? conversationTarget(target)
    : target.kind === 'recipient' ? recipientTarget(target, payload)
    : participantsTarget(target);
  if ('ok' in resolved) return resolved;

  // A recipient send forwards payload.text only; every other key is dropped here, silently.
  const stored = resolved.kind === 'recipient' ? { text: payload.text } : payload;
  return { ok: true, envelope: { target: resolved, payload: stored, routingPath: routingPathOf(type, resolved.kind) } };
}
