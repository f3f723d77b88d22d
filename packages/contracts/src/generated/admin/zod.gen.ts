// Generated from specs/openapi/admin.yaml by tooling (@hey-api/openapi-ts, zod plugin); do not edit.

import * as z from 'zod';

/**
 * Every error code of the admin API. `x-status` is the HTTP status that carries each; those
 * the public API also has keep its status.
 *
 */
export const zAdminErrorCode = z.enum([
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
    'command_not_held',
    'request_timeout',
    'cursor_expired',
    'headers_too_large',
    'rate_limited',
    'too_many_streams',
    'internal',
    'not_implemented'
]);

export const zAdminError = z.object({
    error: zAdminErrorCode,
    message: z.string(),
    field: z.string().optional(),
    requestId: z.string().optional()
});

export const zTime = z.iso.datetime({ offset: true });

export const zAccountCreate = z.strictObject({
    name: z.string().min(1).max(64).regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/)
});

export const zAccount = z.object({
    id: z.uuid(),
    name: z.string(),
    outboundPaused: z.boolean(),
    createdAt: zTime
});

/**
 * What an account may upload. `maxBytes` is at most 100,000,000 (about what iMessage
 * carries). `allowedTypes` are media types (`application/pdf`) or whole families
 * (`image*`), lower case; an empty list allows nothing.
 *
 */
export const zTransferLimits = z.strictObject({
    maxBytes: z.int().gte(1).lte(100000000),
    allowedTypes: z.array(z.string().max(127).regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/([a-z0-9][a-z0-9!#$&^_.+-]*|\*)$/)).max(64)
});

/**
 * A time of day, `HH:MM` (24-hour clock).
 */
export const zLocalTime = z.string().regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/);

/**
 * An IANA time zone name (`Europe/Paris`, `America/New_York`, `UTC`); one the server does not know is 400 `invalid_body`.
 */
export const zTimeZone = z.string().min(1).max(64);

export const zQuietHours = z.strictObject({
    from: zLocalTime,
    until: zLocalTime,
    timeZone: zTimeZone,
    conversationTimeZones: z.record(z.string(), zTimeZone).optional()
});

/**
 * An account's line policies (specs/openapi/switchboard.yaml, "Line policies"). Each is off
 * when absent or null.
 *
 */
export const zLinePolicies = z.strictObject({
    newContacts: z.strictObject({
        perHour: z.int().gte(1).lte(100000).nullish(),
        perDay: z.int().gte(1).lte(100000).nullish()
    }).nullish(),
    pacing: z.strictObject({
        perMinute: z.int().gte(1).lte(600)
    }).nullish(),
    loopBreaker: z.strictObject({
        maxUnanswered: z.int().gte(1).lte(10000)
    }).nullish(),
    quietHours: zQuietHours.nullish(),
    firstContactApproval: z.boolean().nullish()
});

export const zRejection = z.strictObject({
    reason: z.string().max(500).optional()
});

export const zPolicyUsage = z.object({
    newContacts: z.object({
        lastHour: z.int().gte(0).lte(1000000),
        lastDay: z.int().gte(0).lte(1000000)
    }),
    quietHours: z.object({
        quiet: z.boolean(),
        opensAt: z.iso.datetime({ offset: true }).nullable()
    }),
    held: z.object({
        quietHours: z.int().gte(0).lte(1000000000),
        firstContactApproval: z.int().gte(0).lte(1000000000)
    }),
    conversation: z.object({
        conversationId: z.uuid(),
        sendsLastMinute: z.int().gte(0).lte(1000000),
        unanswered: z.int().gte(0).lte(1000000)
    }).optional()
});

export const zOutbound = z.object({
    paused: z.boolean()
});

/**
 * `account`: an API key for the public API; `connector`: a key for the account's connector hosts.
 */
export const zKeyKind = z.enum(['account', 'connector']);

export const zKeyCreate = z.strictObject({
    kind: zKeyKind,
    label: z.string().max(200).optional().default('')
});

export const zKey = z.object({
    id: z.uuid(),
    accountId: z.uuid(),
    kind: zKeyKind,
    prefix: z.string(),
    label: z.string(),
    createdAt: zTime,
    revokedAt: z.iso.datetime({ offset: true }).nullable()
});

export const zKeyWithSecret = zKey.and(z.object({
    secret: z.string()
}));

export const zKeyList = z.object({
    keys: z.array(zKey).max(100000)
});

export const zOperatorRole = z.enum(['full', 'read-only']);

export const zOperatorKeyCreate = z.strictObject({
    label: z.string().max(200).optional().default(''),
    role: zOperatorRole.optional()
});

export const zOperatorKey = z.object({
    id: z.uuid(),
    role: zOperatorRole,
    prefix: z.string(),
    label: z.string(),
    createdAt: zTime,
    revokedAt: z.iso.datetime({ offset: true }).nullable()
});

export const zOperatorKeyWithSecret = zOperatorKey.and(z.object({
    secret: z.string()
}));

export const zOperatorKeyList = z.object({
    keys: z.array(zOperatorKey).max(100000)
});

export const zMinuteCounts = z.object({
    minute: zTime,
    accepted: z.int().gte(0).lte(2147483647),
    succeeded: z.int().gte(0).lte(2147483647),
    failed: z.int().gte(0).lte(2147483647)
});

export const zWebhookEndpointState = z.strictObject({
    enabled: z.boolean()
});

export const zWebhookResend = z.strictObject({
    eventId: z.string().regex(/^[1-9][0-9]{0,15}$/)
});

/**
 * One attempt of the endpoint's log, with what the receiver answered: the account's own
 * `WebhookDelivery` (whose fields it repeats, as that schema admits no others) and two more.
 *
 */
export const zDelivery = z.object({
    eventId: z.string(),
    attempt: z.int().gte(1).lte(2147483647),
    at: zTime,
    status: z.int().gte(100).lte(999).nullable(),
    error: z.string().nullable(),
    latencyMs: z.int().gte(0).lte(2147483647),
    responseBody: z.string().max(1024).nullable(),
    resend: z.boolean()
});

export const zDeliveryPage = z.object({
    deliveries: z.array(zDelivery).max(200),
    nextCursor: z.string().nullable()
});

export const zAuditRecord = z.object({
    id: z.string(),
    at: zTime,
    operatorKeyId: z.uuid().nullable(),
    action: z.string(),
    accountId: z.uuid().nullable(),
    subject: z.string().nullable(),
    detail: z.record(z.string(), z.unknown())
});

export const zAuditPage = z.object({
    records: z.array(zAuditRecord).max(200),
    nextCursor: z.string().nullable()
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

export const zOverview = z.object({
    accounts: z.int().gte(0).lte(2147483647),
    hosts: z.object({
        live: z.int().gte(0).lte(2147483647),
        expired: z.int().gte(0).lte(2147483647)
    }),
    outboundPaused: z.boolean(),
    minutes: z.int().gte(1).lte(1440),
    commandsPerMinute: z.array(zMinuteCounts).max(1440),
    failuresByCode: z.array(z.object({
        code: zSettlementCode,
        count: z.int().gte(1).lte(2147483647)
    })).max(100),
    failingEndpoints: z.int().gte(0).lte(2147483647)
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

/**
 * An account's lease and the connector host that holds (or last held) it.
 */
export const zHost = z.object({
    accountId: z.uuid(),
    hostId: z.string(),
    epoch: z.coerce.bigint().gte(BigInt(1)).lte(BigInt(9007199254740991)),
    osMajorVersion: z.int().gte(0).lte(1000),
    capabilities: z.array(zCapability).max(100),
    acquiredAt: zTime,
    renewedAt: zTime,
    expiresAt: zTime,
    live: z.boolean()
});

export const zAccountSummary = zAccount.and(z.object({
    host: zHost.nullable()
}));

export const zAccountList = z.object({
    accounts: z.array(zAccountSummary).max(100000)
});

export const zAccountDetail = zAccountSummary.and(z.object({
    pausedByAll: z.boolean(),
    policies: zLinePolicies
}));

export const zHostList = z.object({
    hosts: z.array(zHost).max(100000)
});

export const zBadRequestError = z.object({
    error: z.literal('bad_request'),
    message: z.string(),
    requestId: z.string().optional()
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

export const zConversationPage = z.object({
    conversations: z.array(zConversation).max(200),
    nextCursor: z.string().nullable()
});

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
 * A UUIDv7.
 */
export const zCommandId = z.uuid();

export const zRoutingPath = z.enum(['agent-turn', 'admin']);

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

/**
 * The line policy that holds a command (see "Line policies").
 */
export const zHoldPolicy = z.enum(['quietHours', 'firstContactApproval']);

export const zStatusChange = z.object({
    status: zCommandStatus,
    at: z.iso.datetime({ offset: true })
});

export const zAttachmentRef = z.strictObject({
    attachmentId: z.string(),
    fileName: z.string(),
    mimeType: z.string(),
    byteSize: z.int().gte(0).lte(2147483647)
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

/**
 * A command as its account's clients read it, with the account it belongs to.
 */
export const zAdminCommand = zCommand.and(z.object({
    accountId: z.uuid()
}));

export const zCommandPage = z.object({
    commands: z.array(zAdminCommand).max(200),
    nextCursor: z.string().nullable()
});

/**
 * `queued`: new work was created. `adopted`: the Idempotency-Key was already known; no new work.
 */
export const zDisposition = z.enum(['queued', 'adopted']);

/**
 * One step of a command's life:
 * - `accepted`: the 202 (`disposition` `queued`; a later request adopting it is answered
 * from this record and adds no step), with `idempotencyKey` and `routingPath`;
 * - `dispatched`: handed to a connector host (`hostId`, `epoch`), at its last dispatch;
 * - `sent`: the platform confirmed the message (`messageExternalId`);
 * - `settled`: `status`, and when failed `errorCode`, `errorMessage`, `errorPath`;
 * - `delivered`, `read`: as the platform reported them;
 * - `failed`: the message failed after it was sent (`failure`);
 * - `edited`, `unsent`: the message was changed or taken back after it was sent.
 * - `held`: a line policy held it (`policy`, while it still holds); `released`: the hold
 * ended and it was queued (the stream's `command.released` says by what).
 *
 */
export const zTimelineEntry = z.object({
    kind: z.enum([
        'accepted',
        'held',
        'released',
        'dispatched',
        'sent',
        'settled',
        'delivered',
        'read',
        'failed',
        'edited',
        'unsent'
    ]),
    at: z.iso.datetime({ offset: true }).nullable(),
    disposition: zDisposition.optional(),
    idempotencyKey: z.string().nullish(),
    routingPath: zRoutingPath.optional(),
    hostId: z.string().nullish(),
    epoch: z.coerce.bigint().gte(BigInt(1)).lte(BigInt(9007199254740991)).optional(),
    messageExternalId: z.string().optional(),
    status: zCommandStatus.optional(),
    errorCode: zSettlementCode.nullish(),
    errorMessage: zErrorMessage.optional(),
    errorPath: zErrorPath.optional(),
    policy: zHoldPolicy.optional(),
    failure: zMessageFailure.optional()
});

export const zCommandDetail = z.object({
    command: zAdminCommand,
    timeline: z.array(zTimelineEntry).max(100)
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

export const zCursorExpiredError = z.object({
    error: z.literal('cursor_expired'),
    message: z.string(),
    oldestId: z.string(),
    requestId: z.string().optional()
});

/**
 * The stream event types delivered (see specs/asyncapi/stream.yaml); null or absent means
 * every type. `webhook.test` events reach the endpoint they name whatever the filter.
 *
 */
export const zWebhookEventTypes = z.array(z.string().max(64)).min(1).max(32).nullable().refine((items) => items == null || new Set(items).size === items.length, { message: 'items must be unique' });

export const zWebhookEndpoint2 = z.object({
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

/**
 * An endpoint as its account reads it, with the account it belongs to.
 */
export const zWebhookEndpoint = zWebhookEndpoint2.and(z.object({
    accountId: z.uuid(),
    failingSince: z.iso.datetime({ offset: true }).nullable()
}));

export const zWebhookEndpointList = z.object({
    endpoints: z.array(zWebhookEndpoint).max(100000)
});

export const zWebhookEndpointWithSecret = zWebhookEndpoint2.and(z.object({
    secret: z.string().regex(/^whsec_[A-Za-z0-9+\/]+={0,2}$/)
}));

export const zWebhookReplay = z.strictObject({
    after: z.string().max(19).regex(/^[0-9]{1,19}$/)
});

export const zWebhookTestAccepted = z.object({
    eventId: z.string()
});

/**
 * The account's id. An id of no account, or not a UUID, is 404 `account_not_found`.
 */
export const zAccountId = z.string();

/**
 * A command of any account; an id of no command is 404 `command_not_found`.
 */
export const zCommandId2 = z.uuid();

/**
 * An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`.
 */
export const zEndpointId = z.string();

export const zKeyId = z.string();

export const zLimit = z.int().gte(1).lte(200).default(50);

/**
 * The `nextCursor` of the previous page.
 */
export const zCursor = z.string().max(200);

export const zAdminOverviewQuery = z.object({
    minutes: z.int().gte(1).lte(1440).optional().default(60)
});

/**
 * The figures.
 */
export const zAdminOverviewResponse = zOverview;

/**
 * The accounts.
 */
export const zAdminListAccountsResponse = zAccountList;

export const zAdminCreateAccountBody = zAccountCreate;

/**
 * The account.
 */
export const zAdminCreateAccountResponse = zAccount;

export const zAdminGetAccountPath = z.object({
    accountId: z.string()
});

/**
 * The account.
 */
export const zAdminGetAccountResponse = zAccountDetail;

export const zAdminPauseAccountPath = z.object({
    accountId: z.string()
});

/**
 * The account, paused.
 */
export const zAdminPauseAccountResponse = zAccount;

export const zAdminResumeAccountPath = z.object({
    accountId: z.string()
});

/**
 * The account, resumed.
 */
export const zAdminResumeAccountResponse = zAccount;

export const zAdminGetPoliciesPath = z.object({
    accountId: z.string()
});

/**
 * The policies.
 */
export const zAdminGetPoliciesResponse = zLinePolicies;

export const zAdminSetPoliciesBody = zLinePolicies;

export const zAdminSetPoliciesPath = z.object({
    accountId: z.string()
});

/**
 * The policies as stored.
 */
export const zAdminSetPoliciesResponse = zLinePolicies;

/**
 * Every account is paused.
 */
export const zAdminPauseAllResponse = zOutbound;

/**
 * The pause of every account is over.
 */
export const zAdminResumeAllResponse = zOutbound;

export const zAdminListKeysPath = z.object({
    accountId: z.string()
});

/**
 * The keys, oldest first; never their secrets.
 */
export const zAdminListKeysResponse = zKeyList;

export const zAdminCreateKeyBody = zKeyCreate;

export const zAdminCreateKeyPath = z.object({
    accountId: z.string()
});

/**
 * The key, with its secret.
 */
export const zAdminCreateKeyResponse = zKeyWithSecret;

export const zAdminRevokeKeyPath = z.object({
    keyId: z.string()
});

/**
 * The key, revoked.
 */
export const zAdminRevokeKeyResponse = zKey;

/**
 * The keys, oldest first; never their secrets.
 */
export const zAdminListOperatorKeysResponse = zOperatorKeyList;

export const zAdminCreateOperatorKeyBody = zOperatorKeyCreate;

/**
 * The key, with its secret.
 */
export const zAdminCreateOperatorKeyResponse = zOperatorKeyWithSecret;

/**
 * The key, never its secret.
 */
export const zAdminSessionResponse = zOperatorKey;

export const zAdminRevokeOperatorKeyPath = z.object({
    keyId: z.string()
});

/**
 * The key, revoked.
 */
export const zAdminRevokeOperatorKeyResponse = zOperatorKey;

/**
 * The leases, one per account that ever had one.
 */
export const zAdminListHostsResponse = zHostList;

export const zAdminListConversationsPath = z.object({
    accountId: z.string()
});

export const zAdminListConversationsQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().max(200).optional()
});

/**
 * A page of conversations.
 */
export const zAdminListConversationsResponse = zConversationPage;

export const zAdminGetTransferLimitsPath = z.object({
    accountId: z.string()
});

/**
 * The limits.
 */
export const zAdminGetTransferLimitsResponse = zTransferLimits;

export const zAdminSetTransferLimitsBody = zTransferLimits;

export const zAdminSetTransferLimitsPath = z.object({
    accountId: z.string()
});

/**
 * The limits as stored.
 */
export const zAdminSetTransferLimitsResponse = zTransferLimits;

export const zAdminGetPolicyUsagePath = z.object({
    accountId: z.string()
});

export const zAdminGetPolicyUsageQuery = z.object({
    conversationId: z.uuid().optional()
});

/**
 * The usage.
 */
export const zAdminGetPolicyUsageResponse = zPolicyUsage;

export const zAdminListCommandsQuery = z.object({
    accountId: z.uuid().optional(),
    status: zCommandStatus.optional(),
    errorCode: zSettlementCode.optional(),
    type: zCommandType.optional(),
    createdAfter: z.iso.datetime({ offset: true }).optional(),
    createdBefore: z.iso.datetime({ offset: true }).optional(),
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().max(200).optional()
});

/**
 * A page of commands.
 */
export const zAdminListCommandsResponse = zCommandPage;

export const zAdminGetCommandPath = z.object({
    commandId: z.uuid()
});

/**
 * The command and what happened to it.
 */
export const zAdminGetCommandResponse = zCommandDetail;

export const zAdminReleaseCommandPath = z.object({
    commandId: z.uuid()
});

/**
 * The command as it is now.
 */
export const zAdminReleaseCommandResponse = zCommandDetail;

export const zAdminRejectCommandBody = zRejection;

export const zAdminRejectCommandPath = z.object({
    commandId: z.uuid()
});

/**
 * The command as it is now.
 */
export const zAdminRejectCommandResponse = zCommandDetail;

export const zAdminGetEventsHeaders = z.object({
    'Last-Event-ID': z.string().regex(/^[0-9]{0,19}$/).optional()
});

export const zAdminGetEventsPath = z.object({
    accountId: z.string()
});

export const zAdminGetEventsQuery = z.object({
    after: z.string().regex(/^([0-9]{1,19}|now)$/).optional(),
    limit: z.int().gte(1).lte(1000).optional().default(100)
});

/**
 * A page of events (JSON) or the live stream (SSE).
 */
export const zAdminGetEventsResponse = zEventPage;

export const zAdminListAllWebhookEndpointsQuery = z.object({
    state: z.enum([
        'all',
        'failing',
        'disabled'
    ]).optional().default('all')
});

/**
 * The endpoints, oldest first.
 */
export const zAdminListAllWebhookEndpointsResponse = zWebhookEndpointList;

export const zAdminListWebhookEndpointsPath = z.object({
    accountId: z.string()
});

/**
 * The endpoints, oldest first.
 */
export const zAdminListWebhookEndpointsResponse = zWebhookEndpointList;

export const zAdminGetWebhookEndpointPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The endpoint.
 */
export const zAdminGetWebhookEndpointResponse = zWebhookEndpoint;

export const zAdminUpdateWebhookEndpointBody = zWebhookEndpointState;

export const zAdminUpdateWebhookEndpointPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The endpoint.
 */
export const zAdminUpdateWebhookEndpointResponse = zWebhookEndpoint;

export const zAdminRotateWebhookSecretPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The endpoint, with its new secret (shown once).
 */
export const zAdminRotateWebhookSecretResponse = zWebhookEndpointWithSecret;

export const zAdminListWebhookDeliveriesPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

export const zAdminListWebhookDeliveriesQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().regex(/^[0-9]{1,15}$/).optional()
});

/**
 * A page of attempts.
 */
export const zAdminListWebhookDeliveriesResponse = zDeliveryPage;

export const zAdminResendWebhookEventBody = zWebhookResend;

export const zAdminResendWebhookEventPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The attempt, whatever the receiver answered.
 */
export const zAdminResendWebhookEventResponse = zDelivery;

export const zAdminReplayWebhookEndpointBody = zWebhookReplay;

export const zAdminReplayWebhookEndpointPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The endpoint with its new cursor.
 */
export const zAdminReplayWebhookEndpointResponse = zWebhookEndpoint;

export const zAdminTestWebhookEndpointPath = z.object({
    accountId: z.string(),
    endpointId: z.string()
});

/**
 * The event is committed; its delivery follows.
 */
export const zAdminTestWebhookEndpointResponse = zWebhookTestAccepted;

export const zAdminListAuditQuery = z.object({
    limit: z.int().gte(1).lte(200).optional().default(50),
    cursor: z.string().max(200).optional()
});

/**
 * A page of audit records.
 */
export const zAdminListAuditResponse = zAuditPage;
