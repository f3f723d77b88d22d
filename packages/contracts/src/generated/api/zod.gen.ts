// Generated from specs/openapi/switchboard.yaml by tooling (@hey-api/openapi-ts, zod plugin); do not edit.

import * as z from 'zod';

/**
 * Every synchronous error code. `x-status` is the HTTP status that carries it; `x-retry` is
 * the retry guidance: `never` (the request itself must change), `after` (retry the same
 * request after `Retry-After`), `backoff` (retry with exponential backoff).
 *
 */
export const zErrorCode = z.union([
    z.literal('body_too_large'),
    z.literal('body_too_deep'),
    z.literal('body_not_object'),
    z.literal('target_and_payload_required'),
    z.literal('unsupported_target'),
    z.literal('invalid_conversationId'),
    z.literal('recipient_send_requires_recipientExternalId_and_text'),
    z.literal('group_create_requires_participantExternalIds'),
    z.literal('invalid_idempotency_key'),
    z.literal('group_command_requires_group_conversation'),
    z.literal('invalid_query'),
    z.literal('bad_request'),
    z.literal('unauthenticated'),
    z.literal('unknown_command'),
    z.literal('conversation_not_found'),
    z.literal('command_not_found'),
    z.literal('attachment_not_found'),
    z.literal('transfers_disabled'),
    z.literal('transfer_incomplete'),
    z.literal('transfer_empty'),
    z.literal('transfer_too_large'),
    z.literal('transfer_type_invalid'),
    z.literal('transfer_type_not_allowed'),
    z.literal('poll_not_found'),
    z.literal('not_found'),
    z.literal('method_not_allowed'),
    z.literal('request_timeout'),
    z.literal('cursor_expired'),
    z.literal('unsupported_media_type'),
    z.literal('invalid_recipient_address'),
    z.literal('invalid_participant_address'),
    z.literal('rate_limited'),
    z.literal('too_many_streams'),
    z.literal('new_contact_limit'),
    z.literal('pacing_limit'),
    z.literal('loop_breaker'),
    z.literal('headers_too_large'),
    z.literal('invalid_body'),
    z.literal('webhook_endpoint_not_found'),
    z.literal('webhook_endpoint_limit'),
    z.literal('webhook_url_refused'),
    z.literal('internal'),
    z.literal('not_implemented'),
    z.literal('no_live_connector'),
    z.literal('outbound_paused')
]);

/**
 * The `errorCode` of a `failed` command event. The first seven are the service
 * specification's; the rest are Switchboard's own, for failures the specification leaves
 * without a code. Two of the specification's also settle commands beyond the ones its table
 * names, where their meaning is the failure's: `capability_constraint_violation` any command
 * whose capability the host does not declare, and `invalid_target` any command whose target
 * the platform does not have as the command needs it (no such conversation or message, a group
 * the account has left, a conversation of the other kind). A second code with the same meaning
 * would make clients match two for one failure.
 *
 */
export const zSettlementCode = z.union([
    z.literal('stale_target'),
    z.literal('invalid_target'),
    z.literal('gateway_rejected'),
    z.literal('send_returned_not_ok'),
    z.literal('accepted_echo_unconfirmed'),
    z.literal('group_update_unverified'),
    z.literal('capability_constraint_violation'),
    z.literal('payload_invalid'),
    z.literal('transfer_unavailable'),
    z.literal('no_message_to_react_to'),
    z.literal('direct_conversation_required'),
    z.literal('first_contact_rejected'),
    z.literal('quiet_hours_rejected')
]);

export const zCommandBadRequest = z.object({
    error: z.enum([
        'body_too_large',
        'body_not_object',
        'body_too_deep',
        'target_and_payload_required',
        'unsupported_target',
        'invalid_conversationId',
        'invalid_idempotency_key'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

export const zMessageSendBadRequest = z.object({
    error: z.enum([
        'body_too_large',
        'body_not_object',
        'body_too_deep',
        'target_and_payload_required',
        'unsupported_target',
        'invalid_conversationId',
        'recipient_send_requires_recipientExternalId_and_text',
        'invalid_idempotency_key'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

export const zGroupCreateBadRequest = z.object({
    error: z.enum([
        'body_too_large',
        'body_not_object',
        'body_too_deep',
        'target_and_payload_required',
        'unsupported_target',
        'group_create_requires_participantExternalIds'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

export const zGroupBadRequest = z.object({
    error: z.enum([
        'body_too_large',
        'body_not_object',
        'body_too_deep',
        'target_and_payload_required',
        'unsupported_target',
        'invalid_conversationId',
        'group_command_requires_group_conversation'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

export const zUnauthenticatedError = z.object({
    error: z.literal('unauthenticated'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zUnknownCommandError = z.object({
    error: z.literal('unknown_command'),
    message: z.string(),
    command: z.string(),
    requestId: z.string().optional()
});

export const zMethodNotAllowedError = z.object({
    error: z.literal('method_not_allowed'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zUnsupportedMediaTypeError = z.object({
    error: z.literal('unsupported_media_type'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zConversationNotFoundError = z.object({
    error: z.literal('conversation_not_found'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zConversationIdError = z.object({
    error: z.literal('invalid_conversationId'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zNotFoundError = z.object({
    error: z.enum(['command_not_found', 'attachment_not_found']),
    message: z.string(),
    requestId: z.string().optional()
});

export const zTransferError = z.object({
    error: z.enum([
        'transfers_disabled',
        'transfer_incomplete',
        'transfer_empty',
        'transfer_too_large',
        'transfer_type_invalid',
        'transfer_type_not_allowed',
        'invalid_query'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

/**
 * Uploaded media, named in a payload by its `transferId`.
 */
export const zTransfer = z.strictObject({
    transferId: z.string(),
    fileName: z.string(),
    mimeType: z.string(),
    byteSize: z.int().gte(0).lte(100000000),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    createdAt: z.iso.datetime({ offset: true }),
    expiresAt: z.iso.datetime({ offset: true })
});

export const zPollNotFoundError = z.object({
    error: z.literal('poll_not_found'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zPollOption = z.strictObject({
    index: z.int().gte(0).lte(11),
    text: z.string(),
    votes: z.int().gte(0).lte(2147483647)
});

export const zPollVoter = z.strictObject({
    voterExternalId: z.string(),
    optionIndex: z.int().gte(0).lte(11),
    votedAt: z.iso.datetime({ offset: true })
});

export const zPoll = z.strictObject({
    pollId: z.uuid(),
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    question: z.string(),
    options: z.array(zPollOption).max(12),
    voters: z.array(zPollVoter).max(1024),
    sentAt: z.iso.datetime({ offset: true })
});

/**
 * The 422 body. `field` is a JSON Pointer into the request body; `reason` says what was
 * wrong with the address so a client can tell the person.
 *
 */
export const zAddressError = z.object({
    error: z.enum(['invalid_recipient_address', 'invalid_participant_address']),
    message: z.string(),
    field: z.string(),
    reason: z.enum([
        'not_a_string',
        'not_a_phone_number_or_email',
        'invalid_phone_number',
        'invalid_email'
    ]),
    requestId: z.string().optional()
});

export const zRateLimitedError = z.object({
    error: z.literal('rate_limited'),
    message: z.string(),
    retryAfterSeconds: z.int().gte(1).lte(2147483647),
    requestId: z.string().optional()
});

/**
 * A command refused by the account's new-contact budget or pacing (see "Line policies").
 */
export const zLinePolicyLimitedError = z.object({
    error: z.enum(['new_contact_limit', 'pacing_limit']),
    message: z.string(),
    policy: z.enum(['newContacts', 'pacing']),
    limit: z.int().gte(0).lte(2147483647),
    retryAfterSeconds: z.int().gte(1).lte(2147483647),
    requestId: z.string().optional()
});

/**
 * A send refused by the account's loop breaker (see "Line policies"); an inbound message in the conversation lifts it.
 */
export const zLoopBreakerError = z.object({
    error: z.literal('loop_breaker'),
    message: z.string(),
    policy: z.literal('loopBreaker'),
    limit: z.int().gte(0).lte(2147483647),
    requestId: z.string().optional()
});

export const zTooManyStreamsError = z.object({
    error: z.literal('too_many_streams'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zBadRequestError = z.object({
    error: z.literal('bad_request'),
    message: z.string(),
    requestId: z.string().optional()
});

/**
 * An answer given before any route, after which the connection closes.
 */
export const zProtocolError = z.object({
    error: z.enum([
        'request_timeout',
        'headers_too_large',
        'not_implemented'
    ]),
    message: z.string(),
    requestId: z.string().optional()
});

export const zInternalError = z.object({
    error: z.literal('internal'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zUnavailableError = z.object({
    error: z.enum(['no_live_connector', 'outbound_paused']),
    message: z.string(),
    requestId: z.string().optional()
});

export const zNoLiveConnectorError = z.object({
    error: z.literal('no_live_connector'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zQueryInvalidError = z.object({
    error: z.literal('invalid_query'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zInvalidBodyError = z.object({
    error: z.literal('invalid_body'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zWebhookUrlRefusedError = z.object({
    error: z.literal('webhook_url_refused'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zWebhookEndpointLimitError = z.object({
    error: z.literal('webhook_endpoint_limit'),
    message: z.string(),
    requestId: z.string().optional()
});

export const zWebhookEndpointNotFoundError = z.object({
    error: z.literal('webhook_endpoint_not_found'),
    message: z.string(),
    requestId: z.string().optional()
});

/**
 * The stream event types delivered (see specs/asyncapi/stream.yaml); null or absent means
 * every type. `webhook.test` events reach the endpoint they name whatever the filter.
 *
 */
export const zWebhookEventTypes = z.array(z.string().max(64)).min(1).max(32).nullable().refine((items) => items == null || new Set(items).size === items.length, { message: 'items must be unique' });

export const zWebhookEndpointCreate = z.strictObject({
    url: z.string().max(2048),
    eventTypes: zWebhookEventTypes.optional(),
    description: z.string().max(256).nullish()
});

export const zWebhookEndpointUpdate = z.strictObject({
    url: z.string().max(2048).optional(),
    eventTypes: zWebhookEventTypes.optional(),
    description: z.string().max(256).nullish(),
    enabled: z.boolean().optional()
});

export const zWebhookReplay = z.strictObject({
    after: z.string().max(19).regex(/^[0-9]{1,19}$/)
});

export const zWebhookEndpoint = z.object({
    id: z.uuid(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: zWebhookEventTypes,
    enabled: z.boolean(),
    disabledReason: z.enum(['failing', 'operator']).nullable(),
    disabledAt: z.iso.datetime({ offset: true }).nullable(),
    cursor: z.string(),
    backlog: z.int().gte(0).lte(2147483647),
    createdAt: z.iso.datetime({ offset: true }),
    previousSecretExpiresAt: z.iso.datetime({ offset: true }).nullable()
});

export const zWebhookEndpointWithSecret = zWebhookEndpoint.and(z.object({
    secret: z.string().regex(/^whsec_[A-Za-z0-9+\/]+={0,2}$/)
}));

export const zWebhookEndpointList = z.object({
    endpoints: z.array(zWebhookEndpoint).max(20)
});

export const zWebhookDelivery = z.strictObject({
    eventId: z.string(),
    attempt: z.int().gte(1).lte(2147483647),
    at: z.iso.datetime({ offset: true }),
    status: z.int().gte(100).lte(999).nullable(),
    error: z.string().nullable(),
    latencyMs: z.int().gte(0).lte(2147483647)
});

export const zWebhookDeliveryPage = z.object({
    deliveries: z.array(zWebhookDelivery).max(200),
    nextCursor: z.string().nullable()
});

export const zWebhookTestAccepted = z.object({
    eventId: z.string()
});

export const zCursorExpiredError = z.object({
    error: z.literal('cursor_expired'),
    message: z.string(),
    oldestId: z.string(),
    requestId: z.string().optional()
});

export const zCommandType = z.enum([
    'message.send',
    'reaction.tapback',
    'reaction.apply',
    'name_photo.share',
    'group.create',
    'group.update',
    'group.leave'
]);

export const zRoutingPath = z.enum(['agent-turn', 'admin']);

/**
 * `queued` until the connector host settles the command, then `succeeded` or `failed`.
 * `held` only where an operator turned on a line policy that holds (quiet hours, first-contact
 * approval): accepted, not dispatched until released (then `queued`) or rejected (then
 * `failed`). See "Line policies".
 *
 */
export const zCommandStatus = z.enum([
    'queued',
    'succeeded',
    'failed',
    'held'
]);

/**
 * The line policy that holds a command (see "Line policies").
 */
export const zHoldPolicy = z.enum(['quietHours', 'firstContactApproval']);

/**
 * `queued`: new work was created. `adopted`: the Idempotency-Key was already known; no new work.
 */
export const zDisposition = z.enum(['queued', 'adopted']);

/**
 * A UUIDv7.
 */
export const zCommandId = z.uuid();

export const zAcknowledgement = z.strictObject({
    commandId: zCommandId,
    status: zCommandStatus,
    disposition: zDisposition
});

export const zConversationTarget = z.object({
    kind: z.literal('conversation'),
    conversationId: z.uuid()
});

export const zRecipientTarget = z.object({
    kind: z.literal('recipient'),
    recipientExternalId: z.string().max(254)
});

/**
 * The third target shape, used by group.create.
 */
export const zParticipantsTarget = z.object({
    kind: z.literal('participants'),
    participantExternalIds: z.array(z.string().max(254)).min(1).max(32)
});

/**
 * The full-screen effects the platform offers.
 */
export const zScreenEffect = z.enum([
    'balloons',
    'confetti',
    'love',
    'lasers',
    'fireworks',
    'celebration',
    'echo',
    'spotlight'
]);

export const zTapback = z.enum([
    'love',
    'like',
    'dislike',
    'laugh',
    'emphasize',
    'question'
]);

/**
 * Plain text. Omits `kind`.
 */
export const zTextPayload = z.strictObject({
    text: z.string().min(1).max(20000)
});

export const zRichTextPayload = z.strictObject({
    kind: z.literal('rich_text'),
    text: z.string().min(1).max(20000),
    subject: z.string().min(1).max(256).optional(),
    effect: zScreenEffect.optional(),
    replyToMessageExternalId: z.string().min(1).max(256).optional()
});

export const zRichLinkPayload = z.strictObject({
    kind: z.literal('rich_link'),
    url: z.url().max(2048).regex(/^https?:\/\//)
});

export const zPollPayload = z.strictObject({
    kind: z.literal('poll'),
    question: z.string().min(1).max(256),
    options: z.array(z.string().min(1).max(256)).min(2).max(12)
});

/**
 * Media uploaded with `POST /v1/transfers`. Settles `transfer_unavailable` when transfers are off (see "Transfers").
 */
export const zAttachmentPayload = z.strictObject({
    kind: z.literal('attachment'),
    transferId: z.string().max(256)
});

/**
 * An image uploaded with `POST /v1/transfers`, sent as a sticker. Settles `transfer_unavailable` when transfers are off or the transfer is not an image (see "Transfers").
 */
export const zStickerPayload = z.strictObject({
    kind: z.literal('sticker'),
    transferId: z.string().max(256)
});

/**
 * The rich kinds, discriminated by `kind`.
 */
export const zRichPayload = z.discriminatedUnion('kind', [
    zRichTextPayload,
    zRichLinkPayload,
    zPollPayload,
    zAttachmentPayload,
    zStickerPayload
]);

/**
 * Plain text (no `kind`) or one of the rich kinds.
 */
export const zMessageSendPayload = z.union([
    zTextPayload,
    zRichPayload
]);

/**
 * A recipient send carries plain text only. The service stores `text` and discards every
 * other key.
 *
 */
export const zRecipientSendPayload = z.object({
    text: z.string().min(1).max(20000)
});

export const zMessageSendToConversation = z.object({
    target: zConversationTarget,
    payload: zMessageSendPayload
});

export const zMessageSendToRecipient = z.object({
    target: zRecipientTarget,
    payload: zRecipientSendPayload
});

export const zMessageSendRequest = z.union([
    zMessageSendToConversation,
    zMessageSendToRecipient
]);

export const zReactionTapbackPayload = z.strictObject({
    messageExternalId: z.string().min(1).max(256),
    tapback: zTapback,
    remove: z.boolean().optional()
});

export const zReactionTapbackRequest = z.object({
    target: zConversationTarget,
    payload: zReactionTapbackPayload
});

/**
 * Reacts to the newest incoming message of the direct conversation.
 */
export const zReactionApplyPayload = z.strictObject({
    tapback: zTapback
});

export const zReactionApplyRequest = z.object({
    target: zConversationTarget,
    payload: zReactionApplyPayload
});

/**
 * No fields; the card shared is the account's own.
 */
export const zNamePhotoSharePayload = z.strictObject({});

export const zNamePhotoShareRequest = z.object({
    target: zConversationTarget,
    payload: zNamePhotoSharePayload
});

/**
 * `text` is the group's first message: on the platform a group exists once a message is
 * sent to its members. `name` is optional.
 *
 */
export const zGroupCreatePayload = z.strictObject({
    text: z.string().min(1).max(20000),
    name: z.string().min(1).max(128).optional()
});

export const zGroupCreateRequest = z.object({
    target: zParticipantsTarget,
    payload: zGroupCreatePayload
});

/**
 * No fields.
 */
export const zGroupLeavePayload = z.strictObject({});

export const zGroupLeaveRequest = z.object({
    target: zConversationTarget,
    payload: zGroupLeavePayload
});

export const zGroupRenamePayload = z.strictObject({
    action: z.literal('rename'),
    name: z.string().min(1).max(128)
});

export const zGroupAddParticipantPayload = z.strictObject({
    action: z.literal('add_participant'),
    participantExternalId: z.string().min(1).max(254)
});

/**
 * Names the member to remove by address, as add_participant does.
 */
export const zGroupRemoveParticipantPayload = z.strictObject({
    action: z.literal('remove_participant'),
    participantExternalId: z.string().min(1).max(254)
});

/**
 * An image uploaded with `POST /v1/transfers`, set as the group's photo. Settles `transfer_unavailable` when transfers are off or the transfer is not an image (see "Transfers").
 */
export const zGroupSetPhotoPayload = z.strictObject({
    action: z.literal('set_photo'),
    transferId: z.string().max(256)
});

export const zGroupUpdatePayload = z.discriminatedUnion('action', [
    zGroupRenamePayload,
    zGroupAddParticipantPayload,
    zGroupRemoveParticipantPayload,
    zGroupSetPhotoPayload
]);

export const zGroupUpdateRequest = z.object({
    target: zConversationTarget,
    payload: zGroupUpdatePayload
});

export const zTarget = z.discriminatedUnion('kind', [
    zConversationTarget,
    zRecipientTarget,
    zParticipantsTarget
]);

/**
 * Why the command failed, in words, for people: the payload validator's issues or the
 * platform's reason, as the connector host reported it. Null unless the command settled
 * `failed` (and null if the host gave no reason). Not stable: the wording may change in any
 * release, so branch on `errorCode`. At most 1,024 characters; a longer message is cut to
 * 1,023 and ends with `…`.
 *
 */
export const zErrorMessage = z.string().max(1024).nullable();

/**
 * Where in the request body the failure is, as a JSON Pointer (RFC 6901) into the body as
 * posted (`/payload/...`, `/target/...`): the first problem the host found, a misspelled
 * key itself for an unrecognized key. Null when the failure is not about one place (the
 * platform refused the send) or the command did not fail. For people, like
 * `errorMessage`; at most 1,024 characters, a longer pointer shortened to its nearest
 * ancestor that fits.
 *
 */
export const zErrorPath = z.string().max(1024).nullable();

export const zStatusChange = z.object({
    status: zCommandStatus,
    at: z.iso.datetime({ offset: true })
});

export const zConversationKind = z.enum(['direct', 'group']);

export const zParticipant = z.object({
    externalId: z.string()
});

export const zConversation = z.object({
    conversationId: z.uuid(),
    kind: zConversationKind,
    name: z.string().nullable(),
    participants: z.array(zParticipant).max(1024),
    createdAt: z.iso.datetime({ offset: true })
});

/**
 * Why a message the platform took failed afterwards (`message.failed`):
 * - `not_delivered`: the platform reports the message was not delivered (iMessage's red
 * exclamation mark); its words are in `platformMessage`.
 * - `recipient_unreachable`: the platform says the recipient cannot receive it (the address
 * is not on the service).
 *
 */
export const zMessageFailureReason = z.enum(['not_delivered', 'recipient_unreachable']);

export const zMessageFailure = z.strictObject({
    reason: zMessageFailureReason,
    platformMessage: z.string().nullable()
});

export const zAttachmentRef = z.strictObject({
    attachmentId: z.string(),
    fileName: z.string(),
    mimeType: z.string(),
    byteSize: z.int().gte(0).lte(2147483647)
});

/**
 * One message of a conversation and its state. A settled command is never settled again:
 * a send that settled `succeeded` (the platform took the message and echoed it) and then
 * failed keeps its settlement, and shows the failure here (`failedAt`, `failure`) and as
 * `message.failed` on the stream. The settlement is the command's one outcome, which
 * retries and idempotency rest on, and the service specification has no transition out of
 * `succeeded`; what became of the message after it is the message's state.
 *
 */
export const zMessage = z.strictObject({
    messageExternalId: z.string(),
    conversationId: z.uuid(),
    direction: z.enum(['outbound', 'inbound']),
    commandId: z.uuid().nullable(),
    senderExternalId: z.string().nullable(),
    text: z.string().nullable(),
    attachments: z.array(zAttachmentRef).max(100),
    sentAt: z.iso.datetime({ offset: true }).nullable(),
    deliveredAt: z.iso.datetime({ offset: true }).nullable(),
    readAt: z.iso.datetime({ offset: true }).nullable(),
    failedAt: z.iso.datetime({ offset: true }).nullable(),
    failure: zMessageFailure.nullable(),
    editedAt: z.iso.datetime({ offset: true }).nullable(),
    unsentAt: z.iso.datetime({ offset: true }).nullable()
});

export const zCommand = z.object({
    commandId: zCommandId,
    type: zCommandType,
    routingPath: zRoutingPath,
    status: zCommandStatus,
    target: zTarget,
    payload: z.record(z.string(), z.unknown()),
    logicalActionId: z.string(),
    idempotencyKey: z.string().nullish(),
    conversationId: z.uuid().nullable(),
    errorCode: zSettlementCode.nullable(),
    errorMessage: zErrorMessage,
    errorPath: zErrorPath,
    createdAt: z.iso.datetime({ offset: true }),
    settledAt: z.iso.datetime({ offset: true }).nullable(),
    heldBy: zHoldPolicy.nullable(),
    history: z.array(zStatusChange).max(3),
    message: zMessage.nullish()
});

export const zMessagePage = z.object({
    messages: z.array(zMessage).max(200),
    nextCursor: z.string().nullable()
});

export const zConversationPage = z.object({
    conversations: z.array(zConversation).max(200),
    nextCursor: z.string().nullable()
});

export const zCapabilityName = z.enum([
    'command.message_send.conversation.v1',
    'command.message_send.group.v1',
    'command.message_send.recipient.v1',
    'command.message_send.content.v1',
    'command.group_update.v1',
    'command.group_create.v1',
    'command.group_leave.v1',
    'command.reaction_tapback.v1',
    'command.reaction_apply.v1',
    'command.name_photo_share.v1'
]);

export const zRichKind = z.enum([
    'rich_text',
    'rich_link',
    'poll',
    'attachment',
    'sticker'
]);

/**
 * One declared capability. `supportedKinds` belongs to `command.message_send.content.v1`;
 * `supportsRename`, `supportsPhoto` and `supportsParticipants` to `command.group_update.v1`,
 * each declared independently (absent means false).
 *
 */
export const zCapability = z.strictObject({
    name: zCapabilityName,
    supportedKinds: z.array(zRichKind).max(5).optional(),
    supportsRename: z.boolean().optional(),
    supportsPhoto: z.boolean().optional(),
    supportsParticipants: z.boolean().optional()
});

export const zCapabilityReport = z.object({
    hostId: z.string(),
    osMajorVersion: z.int().gte(0).lte(2147483647),
    capabilities: z.array(zCapability).max(64),
    leaseExpiresAt: z.iso.datetime({ offset: true })
});

/**
 * A page of stream events; each item is an envelope from specs/asyncapi/stream.yaml.
 */
export const zEventPage = z.object({
    events: z.array(z.object({
        id: z.string(),
        type: z.string(),
        time: z.iso.datetime({ offset: true }),
        account: z.string(),
        data: z.record(z.string(), z.unknown())
    })).max(1000),
    nextAfter: z.string()
});

/**
 * The agent-turn operations: honoured and checked. A key already known for the account returns 202
 * `adopted` with the original commandId and its current status; one outside the pattern is
 * 400 `invalid_idempotency_key`. Kept for 48 hours.
 *
 */
export const zIdempotencyKey = z.string().min(1).max(255).regex(/^[\x21-\x7E]+$/);

/**
 * message.send routes by target, so what the server does with the key depends on the body,
 * which a header schema cannot see. With a conversation target (agent-turn) it is honoured and
 * checked: 1-255 printable ASCII characters (`^[\x21-\x7E]+$`), else 400
 * `invalid_idempotency_key`; a known key returns 202 `adopted`. With a recipient target
 * (admin) it is accepted unchecked and ignored, as the service specification says, so the
 * schema allows any value.
 *
 */
export const zIdempotencyKeyByTarget = z.string();

/**
 * Admin path: accepted and ignored, whatever its value (never checked, never a 400), so a
 * retry creates new work. Listed so that clients sending one key on every command are not
 * refused by a validating gateway.
 *
 */
export const zIdempotencyKeyIgnored = z.string();

/**
 * An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`.
 */
export const zWebhookEndpointId = z.string().max(64);

export const zSendMessageBody = zMessageSendRequest;

export const zSendMessageHeaders = z.object({
    'Idempotency-Key': z.string().optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zSendMessageResponse = zAcknowledgement;

export const zApplyTapbackBody = zReactionTapbackRequest;

export const zApplyTapbackHeaders = z.object({
    'Idempotency-Key': z.string().min(1).max(255).regex(/^[\x21-\x7E]+$/).optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zApplyTapbackResponse = zAcknowledgement;

export const zApplyReactionBody = zReactionApplyRequest;

export const zApplyReactionHeaders = z.object({
    'Idempotency-Key': z.string().min(1).max(255).regex(/^[\x21-\x7E]+$/).optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zApplyReactionResponse = zAcknowledgement;

export const zShareNamePhotoBody = zNamePhotoShareRequest;

export const zShareNamePhotoHeaders = z.object({
    'Idempotency-Key': z.string().min(1).max(255).regex(/^[\x21-\x7E]+$/).optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zShareNamePhotoResponse = zAcknowledgement;

export const zCreateGroupBody = zGroupCreateRequest;

export const zCreateGroupHeaders = z.object({
    'Idempotency-Key': z.string().optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zCreateGroupResponse = zAcknowledgement;

export const zUpdateGroupBody = zGroupUpdateRequest;

export const zUpdateGroupHeaders = z.object({
    'Idempotency-Key': z.string().optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zUpdateGroupResponse = zAcknowledgement;

export const zLeaveGroupBody = zGroupLeaveRequest;

export const zLeaveGroupHeaders = z.object({
    'Idempotency-Key': z.string().optional()
});

/**
 * The command is durably queued (or an earlier identical one was adopted).
 */
export const zLeaveGroupResponse = zAcknowledgement;

export const zGetCommandPath = z.object({
    commandId: z.string()
});

/**
 * The command.
 */
export const zGetCommandResponse = zCommand;

export const zPostUnknownCommandPath = z.object({
    commandId: z.string()
});

export const zPutCommandEndpointPath = z.object({
    commandId: z.string()
});

export const zListConversationsQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.uuid().optional()
});

/**
 * A page of conversations.
 */
export const zListConversationsResponse = zConversationPage;

export const zGetConversationPath = z.object({
    conversationId: z.string()
});

/**
 * The conversation.
 */
export const zGetConversationResponse = zConversation;

export const zListMessagesPath = z.object({
    conversationId: z.string()
});

export const zListMessagesQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,512}$/).optional()
});

/**
 * A page of messages.
 */
export const zListMessagesResponse = zMessagePage;

/**
 * The live host and its capabilities.
 */
export const zGetCapabilitiesResponse = zCapabilityReport;

export const zGetAttachmentPath = z.object({
    attachmentId: z.string()
});

/**
 * The attachment.
 */
export const zGetAttachmentResponse = z.string();

export const zCreateTransferBody = z.string();

export const zCreateTransferQuery = z.object({
    fileName: z.string().min(1).max(255).regex(/^(?!\.\.?$)[^\/\\\x00-\x1f\x7f]+$/)
});

/**
 * Stored; the `transferId` can be named by a command until `expiresAt`.
 */
export const zCreateTransferResponse = zTransfer;

export const zGetPollPath = z.object({
    pollId: z.string()
});

/**
 * The poll.
 */
export const zGetPollResponse = zPoll;

export const zGetEventsHeaders = z.object({
    'Last-Event-ID': z.string().regex(/^[0-9]{0,19}$/).optional()
});

export const zGetEventsQuery = z.object({
    after: z.string().regex(/^([0-9]{1,19}|now)$/).optional(),
    limit: z.int().gte(1).lte(1000).optional().default(100)
});

/**
 * A page of events (JSON) or the live stream (SSE).
 */
export const zGetEventsResponse = zEventPage;

/**
 * Every endpoint of the account (at most 20).
 */
export const zListWebhookEndpointsResponse = zWebhookEndpointList;

export const zCreateWebhookEndpointBody = zWebhookEndpointCreate;

/**
 * The endpoint, with its signing secret (not shown again).
 */
export const zCreateWebhookEndpointResponse = zWebhookEndpointWithSecret;

export const zDeleteWebhookEndpointPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * Removed; no delivery to it starts after this.
 */
export const zDeleteWebhookEndpointResponse = z.void();

export const zGetWebhookEndpointPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * The endpoint.
 */
export const zGetWebhookEndpointResponse = zWebhookEndpoint;

export const zUpdateWebhookEndpointBody = zWebhookEndpointUpdate;

export const zUpdateWebhookEndpointPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * The endpoint as changed.
 */
export const zUpdateWebhookEndpointResponse = zWebhookEndpoint;

export const zRotateWebhookSecretPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * The endpoint, with its new secret (not shown again).
 */
export const zRotateWebhookSecretResponse = zWebhookEndpointWithSecret;

export const zListWebhookDeliveriesPath = z.object({
    endpointId: z.string().max(64)
});

export const zListWebhookDeliveriesQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().regex(/^[0-9]{1,15}$/).optional()
});

/**
 * A page of attempts.
 */
export const zListWebhookDeliveriesResponse = zWebhookDeliveryPage;

export const zReplayWebhookEndpointBody = zWebhookReplay;

export const zReplayWebhookEndpointPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * The endpoint with its new cursor.
 */
export const zReplayWebhookEndpointResponse = zWebhookEndpoint;

export const zTestWebhookEndpointPath = z.object({
    endpointId: z.string().max(64)
});

/**
 * The event is committed; its delivery follows.
 */
export const zTestWebhookEndpointResponse = zWebhookTestAccepted;
