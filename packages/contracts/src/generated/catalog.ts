// Generated from specs/ by tooling; do not edit.
// Source: specs/openapi/switchboard.yaml (components.schemas.ErrorCode and SettlementCode) and
// specs/openapi/connector.yaml (components.schemas.ConnectorErrorCode) and
// specs/openapi/admin.yaml (components.schemas.AdminErrorCode).

export const errorCodes = [
  'body_too_large',
  'body_too_deep',
  'body_not_object',
  'target_and_payload_required',
  'unsupported_target',
  'invalid_conversationId',
  'recipient_send_requires_recipientExternalId_and_text',
  'group_create_requires_participantExternalIds',
  'invalid_idempotency_key',
  'group_command_requires_group_conversation',
  'invalid_query',
  'bad_request',
  'unauthenticated',
  'unknown_command',
  'conversation_not_found',
  'command_not_found',
  'attachment_not_found',
  'poll_not_found',
  'not_found',
  'method_not_allowed',
  'request_timeout',
  'cursor_expired',
  'unsupported_media_type',
  'invalid_recipient_address',
  'invalid_participant_address',
  'rate_limited',
  'too_many_streams',
  'headers_too_large',
  'invalid_body',
  'webhook_endpoint_not_found',
  'webhook_endpoint_limit',
  'webhook_url_refused',
  'internal',
  'not_implemented',
  'no_live_connector',
  'outbound_paused',
] as const;

export type ErrorCode = (typeof errorCodes)[number];

export const errorCatalog: Record<ErrorCode, { status: number; retry: 'never' | 'after' | 'backoff'; description: string }> = {
  body_too_large: { status: 400, retry: 'never', description: 'The body is over 65,536 bytes.' },
  body_too_deep: { status: 400, retry: 'never', description: 'The body nests arrays or objects more than 64 levels deep. A parser limit, like the size limit; no payload of any command type comes close.' },
  body_not_object: { status: 400, retry: 'never', description: 'The body is not a JSON object (including malformed JSON, bytes that are not UTF-8, and prototype-poisoning keys at any depth).' },
  target_and_payload_required: { status: 400, retry: 'never', description: '`target` or `payload` is missing or not an object.' },
  unsupported_target: { status: 400, retry: 'never', description: 'The target\'s `kind` is missing, unknown, or not allowed for this command type.' },
  invalid_conversationId: { status: 400, retry: 'never', description: 'The conversationId is not a UUID.' },
  recipient_send_requires_recipientExternalId_and_text: { status: 400, retry: 'never', description: 'A recipient target is missing `recipientExternalId` or `payload.text`.' },
  group_create_requires_participantExternalIds: { status: 400, retry: 'never', description: 'A participants target is missing `participantExternalIds`, or it is not a non-empty array of at most 32 strings.' },
  invalid_idempotency_key: { status: 400, retry: 'never', description: 'The Idempotency-Key is not 1-255 printable ASCII characters (agent-turn path only).' },
  group_command_requires_group_conversation: { status: 400, retry: 'never', description: 'A group command is aimed at a direct conversation.' },
  invalid_query: { status: 400, retry: 'never', description: 'A query parameter of a read endpoint is invalid.' },
  bad_request: { status: 400, retry: 'never', description: 'The request is not well-formed HTTP/1.1 (request line, header syntax, framing) or its path is not valid percent-encoding. Answered before any route, with `Connection: close`.' },
  unauthenticated: { status: 401, retry: 'never', description: 'No credential, or an unknown or revoked one.' },
  unknown_command: { status: 404, retry: 'never', description: 'The `{type}` is not a command type.' },
  conversation_not_found: { status: 404, retry: 'never', description: 'The conversation is unknown, or belongs to another account.' },
  command_not_found: { status: 404, retry: 'never', description: 'No such command for this account.' },
  attachment_not_found: { status: 404, retry: 'never', description: 'No such attachment for this account.' },
  poll_not_found: { status: 404, retry: 'never', description: 'No poll the account sent has this id (unknown, another account\'s, not a poll, or not yet confirmed sent).' },
  not_found: { status: 404, retry: 'never', description: 'No route matches the path.' },
  method_not_allowed: { status: 405, retry: 'never', description: 'The method is not POST.' },
  request_timeout: { status: 408, retry: 'backoff', description: 'The request line, headers or body did not arrive in time. Answered with `Connection: close`.' },
  cursor_expired: { status: 410, retry: 'never', description: 'The stream cursor is not in the account\'s log, older than retention or past its newest event (from a restored or reset database).' },
  unsupported_media_type: { status: 415, retry: 'never', description: 'The body is not sent as `application/json`, or is sent with a `Content-Encoding` the server does not decode (it decodes none).' },
  invalid_recipient_address: { status: 422, retry: 'never', description: 'The recipientExternalId is not a valid phone number or email address.' },
  invalid_participant_address: { status: 422, retry: 'never', description: 'A participantExternalId is not a valid phone number or email address.' },
  rate_limited: { status: 429, retry: 'after', description: 'Over a rate limit: commands or reads on this credential, or failed authentication from this client address (`RateLimit-Policy` says which).' },
  too_many_streams: { status: 429, retry: 'backoff', description: 'The credential already has 5 open SSE streams; close one first.' },
  headers_too_large: { status: 431, retry: 'never', description: 'The request line and headers together are over 16 KiB. Answered before any route, with `Connection: close`.' },
  invalid_body: { status: 400, retry: 'never', description: 'The body is not a JSON object matching the operation\'s schema (webhook endpoints); `message` names the field.' },
  webhook_endpoint_not_found: { status: 404, retry: 'never', description: 'No such webhook endpoint for this account.' },
  webhook_endpoint_limit: { status: 409, retry: 'never', description: 'The account already has 20 webhook endpoints; delete one first.' },
  webhook_url_refused: { status: 422, retry: 'never', description: 'The webhook URL is not https (only loopback and operator-allowed hosts may use http), carries credentials, or names a private, link-local or otherwise internal address.' },
  internal: { status: 500, retry: 'backoff', description: 'A persistence failure; nothing was written.' },
  not_implemented: { status: 501, retry: 'never', description: 'The method, or a transfer coding of the request, is not one the server implements (RFC 9110 §15.6.2). Answered with `Connection: close`.' },
  no_live_connector: { status: 503, retry: 'backoff', description: 'No connector host holds a live lease for the account.' },
  outbound_paused: { status: 503, retry: 'backoff', description: 'An operator paused sending for this account or for all accounts.' },
};

export const settlementCodes = [
  'stale_target',
  'invalid_target',
  'gateway_rejected',
  'send_returned_not_ok',
  'accepted_echo_unconfirmed',
  'group_update_unverified',
  'capability_constraint_violation',
  'payload_invalid',
  'transfer_unavailable',
  'no_message_to_react_to',
  'direct_conversation_required',
] as const;

export type SettlementCode = (typeof settlementCodes)[number];

export const settlementCatalog: Record<SettlementCode, { description: string }> = {
  stale_target: { description: 'The reply target aged out, or the group\'s membership changed underneath the command.' },
  invalid_target: { description: 'The target is not valid on the platform.' },
  gateway_rejected: { description: 'The platform\'s gateway rejected the send.' },
  send_returned_not_ok: { description: 'The send returned a not-ok result.' },
  accepted_echo_unconfirmed: { description: 'The send was accepted but no echo confirmed it.' },
  group_update_unverified: { description: 'The group change could not be confirmed.' },
  capability_constraint_violation: { description: 'The connector host does not declare the capability (or the capability parameter, or the rich kind) the command needs.' },
  payload_invalid: { description: 'The payload does not match the command type\'s schema (a misspelled field, an out-of-range value, a bad enum).' },
  transfer_unavailable: { description: 'The payload needs a `transferId`; nothing produces one.' },
  no_message_to_react_to: { description: 'reaction.apply found no incoming message in the direct conversation; reaction.tapback named a message that does not exist.' },
  direct_conversation_required: { description: 'reaction.apply or name_photo.share was aimed at a group.' },
};

/** The connector protocol's error codes; those it shares with the public API carry the same status. */
export const connectorErrorCodes = [
  'invalid_request',
  'bad_request',
  'unauthenticated',
  'lease_held',
  'lease_lost',
  'command_not_found',
  'already_settled',
  'not_dispatched',
] as const;

export type ConnectorErrorCode = (typeof connectorErrorCodes)[number];

export const connectorErrorCatalog: Record<ConnectorErrorCode, { status: number }> = {
  invalid_request: { status: 400 },
  bad_request: { status: 400 },
  unauthenticated: { status: 401 },
  lease_held: { status: 409 },
  lease_lost: { status: 409 },
  command_not_found: { status: 404 },
  already_settled: { status: 409 },
  not_dispatched: { status: 409 },
};

/** The admin API's error codes; those it shares with the public API carry the same status. */
export const adminErrorCodes = [
  'bad_request',
  'invalid_query',
  'invalid_body',
  'unsupported_media_type',
  'unauthenticated',
  'forbidden',
  'not_found',
  'account_not_found',
  'key_not_found',
  'command_not_found',
  'webhook_endpoint_not_found',
  'event_not_found',
  'method_not_allowed',
  'account_exists',
  'request_timeout',
  'cursor_expired',
  'headers_too_large',
  'rate_limited',
  'too_many_streams',
  'internal',
  'not_implemented',
] as const;

export type AdminErrorCode = (typeof adminErrorCodes)[number];

export const adminErrorCatalog: Record<AdminErrorCode, { status: number }> = {
  bad_request: { status: 400 },
  invalid_query: { status: 400 },
  invalid_body: { status: 400 },
  unsupported_media_type: { status: 415 },
  unauthenticated: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  account_not_found: { status: 404 },
  key_not_found: { status: 404 },
  command_not_found: { status: 404 },
  webhook_endpoint_not_found: { status: 404 },
  event_not_found: { status: 404 },
  method_not_allowed: { status: 405 },
  account_exists: { status: 409 },
  request_timeout: { status: 408 },
  cursor_expired: { status: 410 },
  headers_too_large: { status: 431 },
  rate_limited: { status: 429 },
  too_many_streams: { status: 429 },
  internal: { status: 500 },
  not_implemented: { status: 501 },
};
