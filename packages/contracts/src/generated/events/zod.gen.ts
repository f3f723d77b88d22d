// Generated from specs/asyncapi/stream.yaml by tooling (@hey-api/openapi-ts, zod plugin); do not edit.

import * as z from 'zod';

export const zEventType = z.enum([
    'command.settled',
    'conversation.appeared',
    'message.received',
    'message.sent',
    'group.renamed',
    'group.participants_changed',
    'webhook.endpoint_disabled',
    'webhook.test',
    'poll.voted',
    'message.delivered',
    'message.read',
    'message.failed',
    'message.reaction',
    'message.edited',
    'message.unsent',
    'command.held',
    'command.released'
]);

/**
 * Strictly increasing within the account.
 */
export const zEventId = z.string().regex(/^[0-9]{1,19}$/);

export const zTime = z.iso.datetime({ offset: true });

/**
 * The account the event belongs to.
 */
export const zAccountId = z.string();

export const zCommandType = z.enum([
    'message.send',
    'reaction.tapback',
    'reaction.apply',
    'name_photo.share',
    'group.create',
    'group.update',
    'group.leave'
]);

/**
 * The codes of specs/openapi/switchboard.yaml `SettlementCode`; the drift check keeps the two lists equal.
 */
export const zSettlementCode = z.enum([
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
    'first_contact_rejected',
    'quiet_hours_rejected'
]);

export const zCommandSettled = z.strictObject({
    commandId: z.uuid(),
    logicalActionId: z.string(),
    status: z.enum(['succeeded', 'failed']),
    errorCode: zSettlementCode.nullable(),
    errorMessage: z.string().max(1024).nullable(),
    errorPath: z.string().max(1024).nullable(),
    commandType: zCommandType,
    routingPath: z.enum(['agent-turn', 'admin']),
    conversationId: z.uuid().nullish()
});

export const zCommandSettledEvent = z.strictObject({
    id: zEventId,
    type: z.literal('command.settled'),
    time: zTime,
    account: zAccountId,
    data: zCommandSettled
});

export const zStreamConversation = z.strictObject({
    conversationId: z.uuid(),
    kind: z.enum(['direct', 'group']),
    name: z.string().nullable(),
    participants: z.array(z.string()),
    commandId: z.string().nullish()
});

export const zConversationAppearedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('conversation.appeared'),
    time: zTime,
    account: zAccountId,
    data: zStreamConversation
});

export const zAttachmentRef = z.strictObject({
    attachmentId: z.string(),
    fileName: z.string(),
    mimeType: z.string(),
    byteSize: z.int().gte(0)
});

export const zMessageReceived = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    text: z.string().nullable(),
    attachments: z.array(zAttachmentRef),
    receivedAt: z.iso.datetime({ offset: true })
});

export const zMessageReceivedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.received'),
    time: zTime,
    account: zAccountId,
    data: zMessageReceived
});

export const zMessageSent = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    commandId: z.uuid()
});

export const zMessageSentEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.sent'),
    time: zTime,
    account: zAccountId,
    data: zMessageSent
});

export const zGroupRenamed = z.strictObject({
    conversationId: z.uuid(),
    name: z.string(),
    commandId: z.string().nullish()
});

export const zGroupRenamedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('group.renamed'),
    time: zTime,
    account: zAccountId,
    data: zGroupRenamed
});

export const zGroupParticipantsChanged = z.strictObject({
    conversationId: z.uuid(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    participants: z.array(z.string()),
    commandId: z.string().nullish()
});

export const zGroupParticipantsChangedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('group.participants_changed'),
    time: zTime,
    account: zAccountId,
    data: zGroupParticipantsChanged
});

export const zWebhookEndpointDisabled = z.strictObject({
    endpointId: z.uuid(),
    url: z.string(),
    eventId: z.string(),
    failingSince: zTime,
    lastError: z.string()
});

export const zWebhookEndpointDisabledEvent = z.strictObject({
    id: zEventId,
    type: z.literal('webhook.endpoint_disabled'),
    time: zTime,
    account: zAccountId,
    data: zWebhookEndpointDisabled
});

export const zWebhookTest = z.strictObject({
    endpointId: z.uuid()
});

export const zWebhookTestEvent = z.strictObject({
    id: zEventId,
    type: z.literal('webhook.test'),
    time: zTime,
    account: zAccountId,
    data: zWebhookTest
});

/**
 * One voter's choice changed. A voter holds at most one option of a poll at a time (the
 * poll payload has no multiple-choice setting, and a tally that counts people is what a
 * sender asks for), so every vote is one of three changes: `cast` (no option before),
 * `changed` (another option before), `withdrawn` (no option after). Options are named by
 * their position in the poll's `options` (from 0) and, for convenience, by their text;
 * two options may have the same text, their positions never do.
 *
 */
export const zPollVoted = z.strictObject({
    pollId: z.uuid(),
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    voterExternalId: z.string(),
    change: z.enum([
        'cast',
        'changed',
        'withdrawn'
    ]),
    optionIndex: z.int().gte(0).lte(11).nullable(),
    option: z.string().nullable(),
    previousOptionIndex: z.int().gte(0).lte(11).nullable(),
    previousOption: z.string().nullable(),
    votedAt: zTime
});

export const zPollVotedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('poll.voted'),
    time: zTime,
    account: zAccountId,
    data: zPollVoted
});

/**
 * The tapbacks of specs/openapi/switchboard.yaml `Tapback`; the lint keeps the two lists equal.
 */
export const zTapback = z.enum([
    'love',
    'like',
    'dislike',
    'laugh',
    'emphasize',
    'question'
]);

/**
 * The reasons of specs/openapi/switchboard.yaml `MessageFailureReason`; the lint keeps the two lists equal.
 */
export const zMessageFailureReason = z.enum(['not_delivered', 'recipient_unreachable']);

export const zMessageDelivered = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    commandId: z.uuid().nullable(),
    deliveredAt: zTime
});

export const zMessageDeliveredEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.delivered'),
    time: zTime,
    account: zAccountId,
    data: zMessageDelivered
});

export const zMessageRead = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    commandId: z.uuid().nullable(),
    readAt: zTime
});

export const zMessageReadEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.read'),
    time: zTime,
    account: zAccountId,
    data: zMessageRead
});

export const zMessageFailed = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    commandId: z.uuid().nullable(),
    reason: zMessageFailureReason,
    platformMessage: z.string().nullable(),
    failedAt: zTime
});

export const zMessageFailedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.failed'),
    time: zTime,
    account: zAccountId,
    data: zMessageFailed
});

export const zMessageReaction = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    reactionExternalId: z.string(),
    senderExternalId: z.string(),
    reaction: zTapback,
    action: z.enum(['added', 'removed']),
    reactedAt: zTime
});

export const zMessageReactionEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.reaction'),
    time: zTime,
    account: zAccountId,
    data: zMessageReaction
});

export const zMessageEdited = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    text: z.string(),
    editedAt: zTime
});

export const zMessageEditedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.edited'),
    time: zTime,
    account: zAccountId,
    data: zMessageEdited
});

export const zMessageUnsent = z.strictObject({
    conversationId: z.uuid(),
    messageExternalId: z.string(),
    senderExternalId: z.string(),
    unsentAt: zTime
});

export const zMessageUnsentEvent = z.strictObject({
    id: zEventId,
    type: z.literal('message.unsent'),
    time: zTime,
    account: zAccountId,
    data: zMessageUnsent
});

/**
 * The line policy that holds a command.
 */
export const zHoldPolicy = z.enum(['quietHours', 'firstContactApproval']);

export const zCommandHeld = z.strictObject({
    commandId: z.uuid(),
    commandType: zCommandType,
    policy: zHoldPolicy,
    conversationId: z.uuid().nullable(),
    releasesAt: z.iso.datetime({ offset: true }).nullable(),
    reason: z.string().max(1024)
});

export const zCommandHeldEvent = z.strictObject({
    id: zEventId,
    type: z.literal('command.held'),
    time: zTime,
    account: zAccountId,
    data: zCommandHeld
});

export const zCommandReleased = z.strictObject({
    commandId: z.uuid(),
    commandType: zCommandType,
    policy: zHoldPolicy,
    by: z.enum([
        'window',
        'policy_change',
        'operator'
    ])
});

export const zCommandReleasedEvent = z.strictObject({
    id: zEventId,
    type: z.literal('command.released'),
    time: zTime,
    account: zAccountId,
    data: zCommandReleased
});

/**
 * Any account event, discriminated by `type`.
 */
export const zStreamEvent = z.discriminatedUnion('type', [
    zCommandSettledEvent,
    zConversationAppearedEvent,
    zMessageReceivedEvent,
    zMessageSentEvent,
    zGroupRenamedEvent,
    zGroupParticipantsChangedEvent,
    zWebhookEndpointDisabledEvent,
    zWebhookTestEvent,
    zPollVotedEvent,
    zMessageDeliveredEvent,
    zMessageReadEvent,
    zMessageFailedEvent,
    zMessageReactionEvent,
    zMessageEditedEvent,
    zMessageUnsentEvent,
    zCommandHeldEvent,
    zCommandReleasedEvent
]);

export const zStreamReset = z.strictObject({
    reason: z.literal('cursor_expired'),
    requestedAfter: z.string(),
    oldestId: z.string()
});
