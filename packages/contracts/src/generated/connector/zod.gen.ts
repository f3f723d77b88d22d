// Generated from specs/openapi/connector.yaml by tooling (@hey-api/openapi-ts, zod plugin); do not edit.

import * as z from 'zod';

/**
 * Every error code of the connector protocol. `x-status` is the HTTP status that carries each;
 * `bad_request`, `unauthenticated` and `command_not_found` are the public API's codes, with
 * the same status.
 *
 */
export const zConnectorErrorCode = z.enum([
    'invalid_request',
    'bad_request',
    'unauthenticated',
    'lease_held',
    'lease_lost',
    'command_not_found',
    'transfer_not_found',
    'already_settled',
    'not_dispatched'
]);

export const zConnectorError = z.object({
    error: zConnectorErrorCode,
    message: z.string(),
    holderHostId: z.string().optional()
});

export const zLeaseHeldError = z.object({
    error: z.literal('lease_held'),
    message: z.string(),
    holderHostId: z.string(),
    expiresAt: z.iso.datetime({ offset: true })
});

export const zHostId = z.string().min(1).max(128).regex(/^[A-Za-z0-9._:-]+$/);

export const zLease = z.object({
    accountId: z.string(),
    hostId: z.string(),
    epoch: z.int().gte(1).lte(2147483647),
    ttlMs: z.int().gte(1).lte(2147483647),
    expiresAt: z.iso.datetime({ offset: true }),
    keptWhilePolling: z.boolean().optional()
});

export const zEpochRequest = z.strictObject({
    epoch: z.int().gte(1).lte(2147483647)
});

export const zDispatchRequest = z.strictObject({
    epoch: z.int().gte(1).lte(2147483647),
    holding: z.array(z.uuid()).max(1000),
    max: z.int().gte(1).lte(100).optional().default(20),
    waitMs: z.int().gte(0).lte(30000).optional().default(20000)
});

export const zAttachmentRef = z.strictObject({
    attachmentId: z.string(),
    fileName: z.string(),
    mimeType: z.string(),
    byteSize: z.int().gte(0).lte(2147483647)
});

export const zPlatformMessageReceived = z.strictObject({
    type: z.literal('message.received'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    text: z.string().nullable(),
    attachments: z.array(zAttachmentRef).max(100),
    receivedAt: z.iso.datetime({ offset: true })
});

export const zPlatformMessageSent = z.strictObject({
    type: z.literal('message.sent'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    commandId: z.uuid()
});

export const zPlatformGroupRenamed = z.strictObject({
    type: z.literal('group.renamed'),
    conversationExternalId: z.string(),
    name: z.string(),
    commandId: z.uuid().optional()
});

/**
 * The group's members now (`participants`). The stream event's `added` and `removed` are the difference from the members the server held, which is what subscribers saw last: a host that restarted may not know the members from before, so its own `added` and `removed` are not relied on.
 */
export const zPlatformGroupParticipantsChanged = z.strictObject({
    type: z.literal('group.participants_changed'),
    conversationExternalId: z.string(),
    added: z.array(z.string()).max(1024),
    removed: z.array(z.string()).max(1024),
    participants: z.array(z.string()).max(1024),
    commandId: z.uuid().optional()
});

export const zPlatformPollVoted = z.strictObject({
    type: z.literal('poll.voted'),
    conversationExternalId: z.string(),
    pollMessageExternalId: z.string(),
    voterExternalId: z.string(),
    optionIndex: z.int().gte(0).lte(11).nullable(),
    votedAt: z.iso.datetime({ offset: true })
});

/**
 * The platform marked one of the account's messages delivered. In a group, iMessage marks a message delivered once, not per member.
 */
export const zPlatformMessageDelivered = z.strictObject({
    type: z.literal('message.delivered'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    deliveredAt: z.iso.datetime({ offset: true })
});

/**
 * The recipient read one of the account's messages (a direct conversation whose recipient sends read receipts; iMessage keeps no read receipts in groups).
 */
export const zPlatformMessageRead = z.strictObject({
    type: z.literal('message.read'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    readAt: z.iso.datetime({ offset: true })
});

/**
 * Someone else edited a message they sent.
 */
export const zPlatformMessageEdited = z.strictObject({
    type: z.literal('message.edited'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    text: z.string(),
    editedAt: z.iso.datetime({ offset: true })
});

/**
 * Someone else unsent (retracted) a message they sent.
 */
export const zPlatformMessageUnsent = z.strictObject({
    type: z.literal('message.unsent'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    unsentAt: z.iso.datetime({ offset: true })
});

export const zPlatformEventsRecorded = z.object({
    recorded: z.int().gte(0).lte(2147483647)
});

export const zAttachmentStored = z.object({
    attachmentId: z.string(),
    byteSize: z.int().gte(0).lte(2147483647)
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

export const zLeaseRequest = z.strictObject({
    hostId: zHostId,
    osMajorVersion: z.int().gte(1).lte(1000),
    capabilities: z.array(zCapability).max(64)
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

export const zRateLimitedError = z.object({
    error: z.literal('rate_limited'),
    message: z.string(),
    retryAfterSeconds: z.int().gte(1).lte(2147483647),
    requestId: z.string().optional()
});

export const zInternalError = z.object({
    error: z.literal('internal'),
    message: z.string(),
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

export const zConversationKind = z.enum(['direct', 'group']);

/**
 * A conversation target, resolved by the server to the platform's conversation.
 */
export const zResolvedConversation = z.object({
    kind: z.literal('conversation'),
    conversationId: z.uuid(),
    externalId: z.string(),
    conversationKind: zConversationKind,
    participants: z.array(z.string()).max(1024),
    membershipVersion: z.int().gte(0).lte(2147483647)
});

export const zPlatformConversationAppeared = z.strictObject({
    type: z.literal('conversation.appeared'),
    externalId: z.string(),
    conversationKind: zConversationKind,
    name: z.string().nullable(),
    participants: z.array(z.string()).max(1024),
    commandId: z.uuid().optional()
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

export const zDispatchedCommand = z.object({
    commandId: z.uuid(),
    epoch: z.int().gte(0).lte(2147483647),
    type: zCommandType,
    routingPath: zRoutingPath,
    logicalActionId: z.string(),
    target: z.discriminatedUnion('kind', [
        zResolvedConversation,
        zRecipientTarget,
        zParticipantsTarget
    ]),
    payload: z.record(z.string(), z.unknown()),
    acceptedAt: z.iso.datetime({ offset: true })
});

export const zDispatch = z.object({
    commands: z.array(zDispatchedCommand).max(100),
    renewedAfterMs: z.int().gte(-2147483648).lte(2147483647)
});

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

export const zSettlement = z.strictObject({
    epoch: z.int().gte(1).lte(2147483647),
    commandId: z.uuid(),
    status: z.enum(['succeeded', 'failed']),
    errorCode: zSettlementCode.nullable(),
    errorMessage: z.string().max(8192).optional(),
    errorPath: z.string().max(8192).regex(/^(\/([^~\/]|~[01])*)*$/).optional(),
    detail: z.string().max(2000).optional()
});

export const zSettlementRecorded = z.object({
    commandId: z.string(),
    status: z.enum(['succeeded', 'failed']),
    errorCode: zSettlementCode.nullable()
});

/**
 * `settled` with what was recorded (`status`, `errorCode`), or the error code the single
 * `settleCommand` would have answered, with its `message`.
 *
 */
export const zSettlementResult = z.object({
    commandId: z.string(),
    result: z.enum([
        'settled',
        'invalid_request',
        'command_not_found',
        'lease_lost',
        'already_settled',
        'not_dispatched'
    ]),
    status: z.enum(['succeeded', 'failed']).optional(),
    errorCode: zSettlementCode.nullish(),
    message: z.string().optional()
});

export const zSettlementsRecorded = z.object({
    results: z.array(zSettlementResult).max(100)
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

/**
 * A message the platform took (and echoed) failed afterwards: it never left the device.
 */
export const zPlatformMessageFailed = z.strictObject({
    type: z.literal('message.failed'),
    conversationExternalId: z.string(),
    messageExternalId: z.string(),
    reason: zMessageFailureReason,
    platformMessage: z.string().max(1024).nullable(),
    failedAt: z.iso.datetime({ offset: true })
});

export const zTapback = z.enum([
    'love',
    'like',
    'dislike',
    'laugh',
    'emphasize',
    'question'
]);

/**
 * Someone else added or removed a tapback on a message of the conversation. A tapback is a message of its own on the platform (`reactionExternalId`); removing one is another.
 */
export const zPlatformMessageReaction = z.strictObject({
    type: z.literal('message.reaction'),
    conversationExternalId: z.string(),
    reactionExternalId: z.string(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    reaction: zTapback,
    action: z.enum(['added', 'removed']),
    reactedAt: z.iso.datetime({ offset: true })
});

export const zPlatformEvent = z.discriminatedUnion('type', [
    zPlatformConversationAppeared,
    zPlatformMessageReceived,
    zPlatformMessageSent,
    zPlatformGroupRenamed,
    zPlatformGroupParticipantsChanged,
    zPlatformPollVoted,
    zPlatformMessageDelivered,
    zPlatformMessageRead,
    zPlatformMessageFailed,
    zPlatformMessageReaction,
    zPlatformMessageEdited,
    zPlatformMessageUnsent
]);

/**
 * A `Settlement` without its epoch (the batch's), with the platform events to record before it.
 */
export const zBatchedSettlement = z.strictObject({
    commandId: z.uuid(),
    status: z.enum(['succeeded', 'failed']),
    errorCode: zSettlementCode.nullable(),
    errorMessage: z.string().max(8192).optional(),
    errorPath: z.string().max(8192).regex(/^(\/([^~\/]|~[01])*)*$/).optional(),
    detail: z.string().max(2000).optional(),
    events: z.array(zPlatformEvent).max(500).optional()
});

export const zSettlementBatch = z.strictObject({
    epoch: z.int().gte(1).lte(2147483647),
    settlements: z.array(zBatchedSettlement).min(1).max(100)
});

export const zPlatformEventBatch = z.strictObject({
    epoch: z.int().gte(1).lte(2147483647),
    events: z.array(zPlatformEvent).min(1).max(500)
});

export const zAcquireLeaseBody = zLeaseRequest;

/**
 * The lease is this host's.
 */
export const zAcquireLeaseResponse = zLease;

export const zRenewLeaseBody = zEpochRequest;

/**
 * Renewed.
 */
export const zRenewLeaseResponse = zLease;

export const zReleaseLeaseBody = zEpochRequest;

/**
 * Released.
 */
export const zReleaseLeaseResponse = z.void();

export const zPollDispatchBody = zDispatchRequest;

/**
 * Zero or more commands.
 */
export const zPollDispatchResponse = zDispatch;

export const zSettleCommandBody = zSettlement;

/**
 * Recorded.
 */
export const zSettleCommandResponse = zSettlementRecorded;

export const zSettleCommandsBody = zSettlementBatch;

/**
 * Each item's result, in the batch's order.
 */
export const zSettleCommandsResponse = zSettlementsRecorded;

export const zReportPlatformEventsBody = zPlatformEventBatch;

/**
 * Recorded.
 */
export const zReportPlatformEventsResponse = zPlatformEventsRecorded;

export const zUploadAttachmentBody = z.string();

export const zUploadAttachmentPath = z.object({
    attachmentId: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/)
});

export const zUploadAttachmentQuery = z.object({
    fileName: z.string().min(1).max(255),
    epoch: z.int().gte(1).lte(2147483647)
});

/**
 * Stored.
 */
export const zUploadAttachmentResponse = zAttachmentStored;

export const zFetchTransferPath = z.object({
    transferId: z.string().max(256)
});

export const zFetchTransferQuery = z.object({
    commandId: z.uuid(),
    epoch: z.int().gte(1).lte(2147483647)
});

/**
 * The media.
 */
export const zFetchTransferResponse = z.string();
