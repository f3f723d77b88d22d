// Generated from specs/openapi/connector.yaml by tooling (openapi-typescript); do not edit.

export interface paths {
    "/v1/connector/lease": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Take the account's lease */
        post: operations["acquireLease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/lease/renew": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extend the live lease by its TTL */
        post: operations["renewLease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/lease/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Give the lease up (a clean shutdown)
         * @description Its unsettled commands are dispatched to the next holder.
         */
        post: operations["releaseLease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/dispatch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Receive commands to execute (long poll)
         * @description Answers at once with the commands waiting for this epoch, oldest first, or waits up to
         *     `waitMs` for one to be queued. A command is handed out once per epoch, unless the host's
         *     next poll shows it never arrived (`holding`, see Dispatch above).
         */
        post: operations["pollDispatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/settlements": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report a command's outcome
         * @description Settles the command and appends its command event to the stream, in one transaction.
         *     Repeating the same settlement under the same epoch answers 200 with what was recorded (a
         *     host may retry after a lost response, even once that epoch has ended). Otherwise: a
         *     command already settled differently, or by another epoch, answers 409 `already_settled`
         *     to the live lease; an epoch that is not the live lease's answers 409 `lease_lost`; and the
         *     live lease settling a command not dispatched to its epoch answers 409 `not_dispatched`.
         *     A failure says why in `errorMessage` (and where, in `errorPath`): that is what the client
         *     reads, so a host sends one for every failure it settles.
         *     The last is not a lost lease: the host keeps its lease, drops the outcome it holds, and
         *     settles the command when a dispatch poll hands it to the live epoch (its
         *     `logicalActionId` finds the action already on the platform, so it is not executed again).
         */
        post: operations["settleCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/settlements/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Report several commands' outcomes, each with the platform events it showed
         * @description Settles each command of the batch as `settleCommand` does, in the order given, in one
         *     transaction: one round trip and one durable commit for what would otherwise be a
         *     platform-events report and a settlement per command. An item's `events` are recorded as
         *     `reportPlatformEvents` records them, just before its settlement, so the stream shows a
         *     command's platform events before its `command.settled`, and a batch's commands in its
         *     order. A host sends a conversation's outcomes in dispatch order, the ones ready together
         *     in one batch.
         *
         *     Each item gets its own result, in the batch's order; one refused item leaves the others
         *     as they are. A repeated settlement (same epoch, same outcome) answers `settled` again and
         *     records nothing, its events included (they were recorded with it). An item whose epoch
         *     is not the live lease's answers `lease_lost` and records nothing. An item whose events
         *     name a conversation neither the server nor an earlier event of the item knows answers
         *     `invalid_request` and records nothing of that item. A different outcome for a command the
         *     same epoch settled answers `already_settled` and records nothing; a command settled by
         *     another epoch (`already_settled`) or not dispatched to this one (`not_dispatched`) still
         *     has the item's events recorded under the live lease: they are what the platform showed.
         *     A host settles an item refused `invalid_request` again on its own, after the batch, so that
         *     command's `command.settled` follows those of the batch's later commands: the one case where
         *     a conversation's settlements leave dispatch order.
         *
         *     A server older than this operation answers 404; a host then reports events and
         *     settlements one request at a time.
         */
        post: operations["settleCommands"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/platform-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Forward what happened on the platform
         * @description Conversations appearing, inbound messages, confirmed outbound messages, group changes and
         *     votes on polls. The server maps platform ids to conversation ids and appends stream events
         *     in the order given. A batch is recorded whole or not at all: each state change commits in one
         *     transaction with the stream events it implies. Reporting is idempotent, so a host
         *     re-reports a batch whose answer it lost (or that an earlier holder may have reported)
         *     without fear: a conversation already known, a message already recorded (same conversation,
         *     `messageExternalId` and type), a group change already recorded for the command that made it
         *     (same conversation, type and `commandId`), and a change without a `commandId` that changes
         *     nothing (a name the group already has, the members it already has, in whatever order the
         *     platform lists them) add no stream event.
         *
         *     A vote (`poll.voted`) names the poll by its message (`pollMessageExternalId`, the
         *     `messageExternalId` of the poll's `message.sent`). It is applied only when its `votedAt`
         *     is not older than the vote the server holds for that voter and it changes the voter's
         *     choice, so a re-reported vote, or one overtaken by a later one, adds no event. A vote on
         *     a message that is not a poll the account sent through Switchboard, or for an option the
         *     poll does not have, is accepted and adds nothing: the platform shows polls the service
         *     never sent (sent from the phone), and a host cannot tell them apart.
         *
         *     What becomes of a message after it was sent, and what other people do to messages:
         *     `message.delivered`, `message.read` and `message.failed` (once each per message: a state
         *     already recorded adds no event, so a host reports them from webhooks and from its
         *     catch-up alike), `message.reaction` (once per `reactionExternalId`: adding and removing a
         *     tapback are two), `message.edited` (once per message and `editedAt`) and
         *     `message.unsent` (once per message). A state reported for a message the server has not
         *     recorded (sent before it kept messages, or from another device) is recorded all the same,
         *     without a `commandId`.
         */
        post: operations["reportPlatformEvents"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/attachments/{attachmentId}": {
        parameters: {
            query: {
                fileName: string;
                epoch: number;
            };
            header?: never;
            path: {
                attachmentId: string;
            };
            cookie?: never;
        };
        get?: never;
        /**
         * Store an inbound attachment's bytes
         * @description Upload before reporting the `message.received` that references it. The media type is the
         *     request's `Content-Type`. At most 25 MiB.
         */
        put: operations["uploadAttachment"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/connector/transfers/{transferId}": {
        parameters: {
            query: {
                /** @description The dispatched command that names the transfer. */
                commandId: string;
                epoch: number;
            };
            header?: never;
            path: {
                transferId: string;
            };
            cookie?: never;
        };
        /**
         * Fetch the media a command names by transferId
         * @description The bytes of an upload (the public API's `POST /v1/transfers`), with its media type as
         *     `Content-Type`, its file name in `Content-Disposition` and its SHA-256 in
         *     `X-Switchboard-Sha256`. Fetching it for a command keeps the transfer as long as that
         *     command is kept, so a retry of the same command after a crash fetches it again. 404
         *     `transfer_not_found` when the server has transfers turned off, or the id is unknown,
         *     another account's, still uploading, or expired before the command was accepted,
         *     or `commandId` is not a command of the account whose payload names this `transferId`:
         *     the host settles the command `failed` with `transfer_unavailable`. The epoch is checked
         *     first (409 `lease_lost`), as for every call of the protocol.
         */
        get: operations["fetchTransfer"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Every error code of the connector protocol. `x-status` is the HTTP status that carries each;
         *     `bad_request`, `unauthenticated` and `command_not_found` are the public API's codes, with
         *     the same status.
         * @enum {string}
         */
        ConnectorErrorCode: "invalid_request" | "bad_request" | "unauthenticated" | "lease_held" | "lease_lost" | "command_not_found" | "transfer_not_found" | "already_settled" | "not_dispatched";
        ConnectorError: {
            error: components["schemas"]["ConnectorErrorCode"];
            message: string;
            /**
             * @description On a dispatch poll's `lease_lost`: the host of the live lease, when one is live. Its
             *     own hostId tells a host that another process with its id took the lease over.
             */
            holderHostId?: string;
        };
        LeaseHeldError: {
            /** @constant */
            error: "lease_held";
            message: string;
            holderHostId: string;
            /** Format: date-time */
            expiresAt: string;
        };
        HostId: string;
        LeaseRequest: {
            hostId: components["schemas"]["HostId"];
            /** Format: int32 */
            osMajorVersion: number;
            capabilities: components["schemas"]["Capability"][];
        };
        Lease: {
            accountId: string;
            hostId: string;
            /** Format: int32 */
            epoch: number;
            /** Format: int32 */
            ttlMs: number;
            /** Format: date-time */
            expiresAt: string;
            /**
             * @description True: while a dispatch poll of this lease waits, the server keeps the lease live, so a
             *     poll may wait longer than `ttlMs` (see "Leases and fencing"). Absent from servers
             *     before this field, whose polls renew only when they read the queue.
             */
            keptWhilePolling?: boolean;
        };
        EpochRequest: {
            /** Format: int32 */
            epoch: number;
        };
        DispatchRequest: {
            /** Format: int32 */
            epoch: number;
            /**
             * @description The commands this host received under `epoch` and has not settled yet (the server
             *     answered its settlement neither 200 nor `already_settled`). Every other command
             *     dispatched under the epoch and still queued is handed out again.
             */
            holding: string[];
            /**
             * Format: int32
             * @default 20
             */
            max?: number;
            /**
             * Format: int32
             * @description How long to wait for a command. The server keeps the lease live while the poll waits
             *     (see "Leases and fencing"); against a server whose Lease lacks `keptWhilePolling`, a
             *     host that relies on its polls to renew its lease keeps the wait well below `ttlMs`.
             *     Proxies between host and server must allow a request this long without a byte.
             * @default 20000
             */
            waitMs?: number;
        };
        /** @description A conversation target, resolved by the server to the platform's conversation. */
        ResolvedConversation: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "conversation";
            /** Format: uuid */
            conversationId: string;
            /** @description The platform's id of the conversation. */
            externalId: string;
            conversationKind: components["schemas"]["ConversationKind"];
            participants: string[];
            /**
             * Format: int32
             * @description How many membership changes the server had seen for the conversation when it
             *     dispatched the command. A host compares it with the platform's own count to detect a
             *     membership that changed underneath the command (`stale_target`).
             */
            membershipVersion: number;
        };
        DispatchedCommand: {
            /** Format: uuid */
            commandId: string;
            /** Format: int32 */
            epoch: number;
            type: components["schemas"]["CommandType"];
            routingPath: components["schemas"]["RoutingPath"];
            logicalActionId: string;
            target: components["schemas"]["ResolvedConversation"] | components["schemas"]["RecipientTarget"] | components["schemas"]["ParticipantsTarget"];
            /** @description As stored; not validated by the server. The host validates it. */
            payload: {
                [key: string]: unknown;
            };
            /** Format: date-time */
            acceptedAt: string;
        };
        Dispatch: {
            commands: components["schemas"]["DispatchedCommand"][];
            /**
             * Format: int32
             * @description How long after the poll arrived the lease was last renewed, negative when that was
             *     before (see "Leases and fencing"): the lease lives at least until the host sent the
             *     poll plus this plus `ttlMs`. A server older than this field does not renew on a poll
             *     and sends none.
             */
            renewedAfterMs: number;
        };
        Settlement: {
            /** Format: int32 */
            epoch: number;
            /** Format: uuid */
            commandId: string;
            /** @enum {string} */
            status: "succeeded" | "failed";
            /** @description Null when `succeeded`; a settlement code when `failed`. */
            errorCode: components["schemas"]["SettlementCode"] | null;
            /**
             * @description Only with `failed` (a 400 otherwise): why, in words, for the person reading the
             *     command (`errorMessage` of the command read and of its `command.settled` event): the
             *     payload validator's issues with where they are, or the platform's reason. The server
             *     keeps at most 1,024 characters of it (a longer one is cut to 1,023 and ends with `…`);
             *     the protocol takes up to 8,192 so that a host never has a settlement refused for a
             *     long message.
             */
            errorMessage?: string;
            /**
             * @description Only with `failed` (a 400 otherwise): where in the command's request body the failure
             *     is, a JSON Pointer (RFC 6901) such as `/payload/txt`, when it is about one place. The
             *     server keeps it when it is at most 1,024 characters, else its nearest ancestor that is.
             */
            errorPath?: string;
            /**
             * @description A note for the server's log (a replayed action, say); never shown to clients. A
             *     `failed` settlement without `errorMessage` (from a host older than it) has its
             *     `detail` shown as the `errorMessage`.
             */
            detail?: string;
        };
        SettlementRecorded: {
            commandId: string;
            /** @enum {string} */
            status: "succeeded" | "failed";
            errorCode: components["schemas"]["SettlementCode"] | null;
        };
        SettlementBatch: {
            /** Format: int32 */
            epoch: number;
            settlements: components["schemas"]["BatchedSettlement"][];
        };
        /** @description A `Settlement` without its epoch (the batch's), with the platform events to record before it. */
        BatchedSettlement: {
            /** Format: uuid */
            commandId: string;
            /** @enum {string} */
            status: "succeeded" | "failed";
            /** @description Null when `succeeded`; a settlement code when `failed`. */
            errorCode: components["schemas"]["SettlementCode"] | null;
            /** @description As in `Settlement`. */
            errorMessage?: string;
            /** @description As in `Settlement`. */
            errorPath?: string;
            /** @description As in `Settlement`. */
            detail?: string;
            /** @description What the platform showed of this command, as `reportPlatformEvents` takes it; recorded first. */
            events?: components["schemas"]["PlatformEvent"][];
        };
        SettlementsRecorded: {
            results: components["schemas"]["SettlementResult"][];
        };
        /**
         * @description `settled` with what was recorded (`status`, `errorCode`), or the error code the single
         *     `settleCommand` would have answered, with its `message`.
         */
        SettlementResult: {
            commandId: string;
            /** @enum {string} */
            result: "settled" | "invalid_request" | "command_not_found" | "lease_lost" | "already_settled" | "not_dispatched";
            /** @enum {string} */
            status?: "succeeded" | "failed";
            errorCode?: components["schemas"]["SettlementCode"] | null;
            message?: string;
        };
        AttachmentRef: {
            attachmentId: string;
            fileName: string;
            mimeType: string;
            /** Format: int32 */
            byteSize: number;
        };
        PlatformConversationAppeared: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.appeared";
            externalId: string;
            conversationKind: components["schemas"]["ConversationKind"];
            name: string | null;
            participants: string[];
            /**
             * Format: uuid
             * @description The recipient send or group.create that made it, if any.
             */
            commandId?: string;
        };
        PlatformMessageReceived: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.received";
            conversationExternalId: string;
            messageExternalId: string;
            senderExternalId: string;
            text: string | null;
            attachments: components["schemas"]["AttachmentRef"][];
            /** Format: date-time */
            receivedAt: string;
        };
        PlatformMessageSent: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.sent";
            conversationExternalId: string;
            messageExternalId: string;
            /** Format: uuid */
            commandId: string;
        };
        PlatformGroupRenamed: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "group.renamed";
            conversationExternalId: string;
            name: string;
            /** Format: uuid */
            commandId?: string;
        };
        /** @description The group's members now (`participants`). The stream event's `added` and `removed` are the difference from the members the server held, which is what subscribers saw last: a host that restarted may not know the members from before, so its own `added` and `removed` are not relied on. */
        PlatformGroupParticipantsChanged: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "group.participants_changed";
            conversationExternalId: string;
            added: string[];
            removed: string[];
            participants: string[];
            /** Format: uuid */
            commandId?: string;
        };
        PlatformPollVoted: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "poll.voted";
            conversationExternalId: string;
            /** @description The poll's message on the platform. */
            pollMessageExternalId: string;
            voterExternalId: string;
            /**
             * Format: int32
             * @description The option (its position in the poll's options, from 0) the voter holds now; null when the vote was withdrawn.
             */
            optionIndex: number | null;
            /**
             * Format: date-time
             * @description When the platform says the vote was made; orders a voter's votes.
             */
            votedAt: string;
        };
        /** @description The platform marked one of the account's messages delivered. In a group, iMessage marks a message delivered once, not per member. */
        PlatformMessageDelivered: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.delivered";
            conversationExternalId: string;
            messageExternalId: string;
            /** Format: date-time */
            deliveredAt: string;
        };
        /** @description The recipient read one of the account's messages (a direct conversation whose recipient sends read receipts; iMessage keeps no read receipts in groups). */
        PlatformMessageRead: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.read";
            conversationExternalId: string;
            messageExternalId: string;
            /** Format: date-time */
            readAt: string;
        };
        /** @description A message the platform took (and echoed) failed afterwards: it never left the device. */
        PlatformMessageFailed: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.failed";
            conversationExternalId: string;
            messageExternalId: string;
            reason: components["schemas"]["MessageFailureReason"];
            /** @description The platform's own words, or its error code, for people. */
            platformMessage: string | null;
            /** Format: date-time */
            failedAt: string;
        };
        /** @description Someone else added or removed a tapback on a message of the conversation. A tapback is a message of its own on the platform (`reactionExternalId`); removing one is another. */
        PlatformMessageReaction: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.reaction";
            conversationExternalId: string;
            reactionExternalId: string;
            /** @description The message reacted to. */
            messageExternalId: string;
            senderExternalId: string;
            reaction: components["schemas"]["Tapback"];
            /** @enum {string} */
            action: "added" | "removed";
            /** Format: date-time */
            reactedAt: string;
        };
        /** @description Someone else edited a message they sent. */
        PlatformMessageEdited: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.edited";
            conversationExternalId: string;
            messageExternalId: string;
            senderExternalId: string;
            text: string;
            /** Format: date-time */
            editedAt: string;
        };
        /** @description Someone else unsent (retracted) a message they sent. */
        PlatformMessageUnsent: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.unsent";
            conversationExternalId: string;
            messageExternalId: string;
            senderExternalId: string;
            /** Format: date-time */
            unsentAt: string;
        };
        PlatformEvent: components["schemas"]["PlatformConversationAppeared"] | components["schemas"]["PlatformMessageReceived"] | components["schemas"]["PlatformMessageSent"] | components["schemas"]["PlatformGroupRenamed"] | components["schemas"]["PlatformGroupParticipantsChanged"] | components["schemas"]["PlatformPollVoted"] | components["schemas"]["PlatformMessageDelivered"] | components["schemas"]["PlatformMessageRead"] | components["schemas"]["PlatformMessageFailed"] | components["schemas"]["PlatformMessageReaction"] | components["schemas"]["PlatformMessageEdited"] | components["schemas"]["PlatformMessageUnsent"];
        PlatformEventBatch: {
            /** Format: int32 */
            epoch: number;
            events: components["schemas"]["PlatformEvent"][];
        };
        PlatformEventsRecorded: {
            /** Format: int32 */
            recorded: number;
        };
        AttachmentStored: {
            attachmentId: string;
            /** Format: int32 */
            byteSize: number;
        };
        /** @enum {string} */
        CapabilityName: "command.message_send.conversation.v1" | "command.message_send.group.v1" | "command.message_send.recipient.v1" | "command.message_send.content.v1" | "command.group_update.v1" | "command.group_create.v1" | "command.group_leave.v1" | "command.reaction_tapback.v1" | "command.reaction_apply.v1" | "command.name_photo_share.v1";
        /** @enum {string} */
        RichKind: "rich_text" | "rich_link" | "poll" | "attachment" | "sticker";
        /**
         * @description One declared capability. `supportedKinds` belongs to `command.message_send.content.v1`;
         *     `supportsRename`, `supportsPhoto` and `supportsParticipants` to `command.group_update.v1`,
         *     each declared independently (absent means false).
         */
        Capability: {
            name: components["schemas"]["CapabilityName"];
            supportedKinds?: components["schemas"]["RichKind"][];
            supportsRename?: boolean;
            supportsPhoto?: boolean;
            supportsParticipants?: boolean;
        };
        /** @description An answer given before any route, after which the connection closes. */
        ProtocolError: {
            /** @enum {string} */
            error: "request_timeout" | "headers_too_large" | "not_implemented";
            message: string;
            requestId?: string;
        };
        RateLimitedError: {
            /** @constant */
            error: "rate_limited";
            message: string;
            /** Format: int32 */
            retryAfterSeconds: number;
            requestId?: string;
        };
        InternalError: {
            /** @constant */
            error: "internal";
            message: string;
            requestId?: string;
        };
        /** @enum {string} */
        CommandType: "message.send" | "reaction.tapback" | "reaction.apply" | "name_photo.share" | "group.create" | "group.update" | "group.leave";
        /** @enum {string} */
        RoutingPath: "agent-turn" | "admin";
        /** @enum {string} */
        ConversationKind: "direct" | "group";
        RecipientTarget: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "recipient";
            /**
             * @description A phone number (normalised to E.164) or an email address. Part of the envelope, so the
             *     endpoint checks it: anything that is not an address (including over 254 characters,
             *     the longest an email address can be) is 422 `invalid_recipient_address`.
             */
            recipientExternalId: string;
        };
        /** @description The third target shape, used by group.create. */
        ParticipantsTarget: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "participants";
            participantExternalIds: string[];
        };
        /**
         * @description The `errorCode` of a `failed` command event. The first seven are the service
         *     specification's; the rest are Switchboard's own, for failures the specification leaves
         *     without a code. Two of the specification's also settle commands beyond the ones its table
         *     names, where their meaning is the failure's: `capability_constraint_violation` any command
         *     whose capability the host does not declare, and `invalid_target` any command whose target
         *     the platform does not have as the command needs it (no such conversation or message, a group
         *     the account has left, a conversation of the other kind). A second code with the same meaning
         *     would make clients match two for one failure.
         */
        SettlementCode: "stale_target" | "invalid_target" | "gateway_rejected" | "send_returned_not_ok" | "accepted_echo_unconfirmed" | "group_update_unverified" | "capability_constraint_violation" | "payload_invalid" | "transfer_unavailable" | "no_message_to_react_to" | "direct_conversation_required" | "first_contact_rejected" | "quiet_hours_rejected";
        /**
         * @description Why a message the platform took failed afterwards (`message.failed`):
         *     - `not_delivered`: the platform reports the message was not delivered (iMessage's red
         *       exclamation mark); its words are in `platformMessage`.
         *     - `recipient_unreachable`: the platform says the recipient cannot receive it (the address
         *       is not on the service).
         * @enum {string}
         */
        MessageFailureReason: "not_delivered" | "recipient_unreachable";
        /** @enum {string} */
        Tapback: "love" | "like" | "dislike" | "laugh" | "emphasize" | "question";
    };
    responses: {
        /** @description The request body or a parameter does not match this protocol. */
        InvalidRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConnectorError"];
            };
        };
        /** @description No connector key, or one the server does not know. */
        Unauthenticated: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConnectorError"];
            };
        };
        /** @description The epoch is not the live lease's. */
        LeaseLost: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConnectorError"];
            };
        };
        /** @description The request did not arrive in time; the connection closes. */
        RequestTimeout: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ProtocolError"];
            };
        };
        /** @description Over a rate limit (see "Abuse limits"): `RateLimit-Policy` names which one. */
        RateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"];
            };
        };
        /** @description The request line and headers are over 16 KiB; the connection closes. */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ProtocolError"];
            };
        };
        /** @description A persistence failure: on a command, nothing was written, so it is safe to retry; on a read, nothing changed. */
        Internal: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InternalError"];
            };
        };
        /** @description A method (CONNECT, or one HTTP/1.1 parsers do not know) or a transfer coding other than chunked; the connection closes. */
        NotImplemented: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ProtocolError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description The scheme that would work (RFC 9110 §15.5.2): always `Bearer`. */
        WWWAuthenticate: "Bearer";
        /** @description Seconds until a request would be counted again. */
        RetryAfter: number;
        /**
         * @description The quota that counted the request: `"default";q=60;w=60` (the command endpoint),
         *     `"read";q=600;w=60` (the reads) or `"auth";q=20;w=60` (failed authentication, on a 429).
         */
        RateLimitPolicy: string;
        /** @description What is left: `"<policy>";r=<remaining>;t=<seconds until a slot frees>`. */
        RateLimit: string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    acquireLease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LeaseRequest"];
            };
        };
        responses: {
            /** @description The lease is this host's. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lease"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            /** @description Another host holds a live lease. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeaseHeldError"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    renewLease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EpochRequest"];
            };
        };
        responses: {
            /** @description Renewed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Lease"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    releaseLease: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["EpochRequest"];
            };
        };
        responses: {
            /** @description Released. */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    pollDispatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["DispatchRequest"];
            };
        };
        responses: {
            /** @description Zero or more commands. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Dispatch"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    settleCommand: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["Settlement"];
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementRecorded"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No such command for this account. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The lease was lost (`lease_lost`), the command is already settled (`already_settled`), or it was not dispatched to this epoch (`not_dispatched`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorError"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    settleCommands: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SettlementBatch"];
            };
        };
        responses: {
            /** @description Each item's result, in the batch's order. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SettlementsRecorded"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    reportPlatformEvents: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PlatformEventBatch"];
            };
        };
        responses: {
            /** @description Recorded. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlatformEventsRecorded"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    uploadAttachment: {
        parameters: {
            query: {
                fileName: string;
                epoch: number;
            };
            header?: never;
            path: {
                attachmentId: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/octet-stream": string;
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AttachmentStored"];
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    fetchTransfer: {
        parameters: {
            query: {
                /** @description The dispatched command that names the transfer. */
                commandId: string;
                epoch: number;
            };
            header?: never;
            path: {
                transferId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The media. */
            200: {
                headers: {
                    "Content-Disposition"?: string;
                    "X-Switchboard-Sha256"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "*/*": string;
                };
            };
            400: components["responses"]["InvalidRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No usable transfer by this id for this account and command. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConnectorError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LeaseLost"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
}
