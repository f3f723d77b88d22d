// Generated from specs/asyncapi/stream.yaml by tooling (openapi-typescript); do not edit.

export type paths = Record<string, never>;
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @enum {string} */
        EventType: "command.settled" | "conversation.appeared" | "message.received" | "message.sent" | "group.renamed" | "group.participants_changed" | "webhook.endpoint_disabled" | "webhook.test" | "poll.voted" | "message.delivered" | "message.read" | "message.failed" | "message.reaction" | "message.edited" | "message.unsent" | "command.held" | "command.released";
        /** @description Strictly increasing within the account. */
        EventId: string;
        /** Format: date-time */
        Time: string;
        /** @description The account the event belongs to. */
        AccountId: string;
        /** @enum {string} */
        CommandType: "message.send" | "reaction.tapback" | "reaction.apply" | "name_photo.share" | "group.create" | "group.update" | "group.leave";
        /**
         * @description The codes of specs/openapi/switchboard.yaml `SettlementCode`; the drift check keeps the two lists equal.
         * @enum {string}
         */
        SettlementCode: "stale_target" | "invalid_target" | "gateway_rejected" | "send_returned_not_ok" | "accepted_echo_unconfirmed" | "group_update_unverified" | "capability_constraint_violation" | "payload_invalid" | "transfer_unavailable" | "no_message_to_react_to" | "direct_conversation_required" | "first_contact_rejected" | "quiet_hours_rejected";
        CommandSettled: {
            /** Format: uuid */
            commandId: string;
            /** @description The honoured Idempotency-Key, otherwise the commandId. */
            logicalActionId: string;
            /** @enum {string} */
            status: "succeeded" | "failed";
            /** @description Null on success; a settlement code on failure. The stable field to branch on. */
            errorCode: components["schemas"]["SettlementCode"] | null;
            /**
             * @description Why the command failed, in words, for people (the payload validator's issues, or the
             *     platform's reason); null on success, or when the host gave no reason. Not stable: its
             *     wording may change in any release, so branch on `errorCode`. At most 1,024
             *     characters, a longer message cut to 1,023 and ending with `…`. The same as the
             *     command read's `errorMessage` (specs/openapi/switchboard.yaml, "Why a command failed").
             */
            errorMessage: string | null;
            /**
             * @description Where in the request body the failure is, as a JSON Pointer (RFC 6901) into the body as
             *     posted, such as `/payload/txt`; null on success or when the failure is not about one
             *     place. For people, like `errorMessage`. The same as the command read's `errorPath`.
             */
            errorPath: string | null;
            commandType: components["schemas"]["CommandType"];
            /** @enum {string} */
            routingPath: "agent-turn" | "admin";
            /**
             * Format: uuid
             * @description The conversation the command acted on or created, when there is one.
             */
            conversationId?: string | null;
        };
        CommandSettledEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "command.settled";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["CommandSettled"];
        };
        StreamConversation: {
            /** Format: uuid */
            conversationId: string;
            /** @enum {string} */
            kind: "direct" | "group";
            name: string | null;
            participants: string[];
            /** @description The recipient send or group.create that made it, if any. */
            commandId?: string | null;
        };
        ConversationAppearedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "conversation.appeared";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["StreamConversation"];
        };
        AttachmentRef: {
            attachmentId: string;
            fileName: string;
            mimeType: string;
            byteSize: number;
        };
        MessageReceived: {
            /** Format: uuid */
            conversationId: string;
            /** @description Usable as `replyToMessageExternalId` and as a tapback's `messageExternalId`. */
            messageExternalId: string;
            senderExternalId: string;
            text: string | null;
            attachments: components["schemas"]["AttachmentRef"][];
            /** Format: date-time */
            receivedAt: string;
        };
        MessageReceivedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.received";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageReceived"];
        };
        MessageSent: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            /** Format: uuid */
            commandId: string;
        };
        MessageSentEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.sent";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageSent"];
        };
        GroupRenamed: {
            /** Format: uuid */
            conversationId: string;
            name: string;
            commandId?: string | null;
        };
        GroupRenamedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "group.renamed";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["GroupRenamed"];
        };
        GroupParticipantsChanged: {
            /** Format: uuid */
            conversationId: string;
            added: string[];
            removed: string[];
            participants: string[];
            commandId?: string | null;
        };
        GroupParticipantsChangedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "group.participants_changed";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["GroupParticipantsChanged"];
        };
        WebhookEndpointDisabled: {
            /** Format: uuid */
            endpointId: string;
            url: string;
            /** @description The event it could not deliver; delivery resumes there once enabled. */
            eventId: string;
            failingSince: components["schemas"]["Time"];
            /** @description The last attempt's outcome, e.g. `status 500` or `timeout`. */
            lastError: string;
        };
        WebhookEndpointDisabledEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "webhook.endpoint_disabled";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["WebhookEndpointDisabled"];
        };
        WebhookTest: {
            /** Format: uuid */
            endpointId: string;
        };
        WebhookTestEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "webhook.test";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["WebhookTest"];
        };
        /**
         * @description One voter's choice changed. A voter holds at most one option of a poll at a time (the
         *     poll payload has no multiple-choice setting, and a tally that counts people is what a
         *     sender asks for), so every vote is one of three changes: `cast` (no option before),
         *     `changed` (another option before), `withdrawn` (no option after). Options are named by
         *     their position in the poll's `options` (from 0) and, for convenience, by their text;
         *     two options may have the same text, their positions never do.
         */
        PollVoted: {
            /**
             * Format: uuid
             * @description The commandId of the message.send that sent the poll.
             */
            pollId: string;
            /** Format: uuid */
            conversationId: string;
            /** @description The poll's message on the platform (its `message.sent`). */
            messageExternalId: string;
            /** @description The address of the person who voted. */
            voterExternalId: string;
            /** @enum {string} */
            change: "cast" | "changed" | "withdrawn";
            /** @description The option voted for now; null when `withdrawn`. */
            optionIndex: number | null;
            /** @description That option's text; null when `withdrawn`. */
            option: string | null;
            /** @description The option the voter held before; null when `cast`. */
            previousOptionIndex: number | null;
            /** @description That option's text; null when `cast`. */
            previousOption: string | null;
            /** @description When the platform says the vote was made. */
            votedAt: components["schemas"]["Time"];
        };
        PollVotedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "poll.voted";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["PollVoted"];
        };
        /**
         * @description The tapbacks of specs/openapi/switchboard.yaml `Tapback`; the lint keeps the two lists equal.
         * @enum {string}
         */
        Tapback: "love" | "like" | "dislike" | "laugh" | "emphasize" | "question";
        /**
         * @description The reasons of specs/openapi/switchboard.yaml `MessageFailureReason`; the lint keeps the two lists equal.
         * @enum {string}
         */
        MessageFailureReason: "not_delivered" | "recipient_unreachable";
        MessageDelivered: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            /**
             * Format: uuid
             * @description The command that sent the message; null for a message the account sent elsewhere.
             */
            commandId: string | null;
            deliveredAt: components["schemas"]["Time"];
        };
        MessageDeliveredEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.delivered";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageDelivered"];
        };
        MessageRead: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            /** Format: uuid */
            commandId: string | null;
            readAt: components["schemas"]["Time"];
        };
        MessageReadEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.read";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageRead"];
        };
        MessageFailed: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            /**
             * Format: uuid
             * @description The command that sent it; its settlement stays as it was.
             */
            commandId: string | null;
            reason: components["schemas"]["MessageFailureReason"];
            /** @description The platform's own words or error code, for people; not stable. */
            platformMessage: string | null;
            failedAt: components["schemas"]["Time"];
        };
        MessageFailedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.failed";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageFailed"];
        };
        MessageReaction: {
            /** Format: uuid */
            conversationId: string;
            /** @description The message reacted to. */
            messageExternalId: string;
            /** @description The tapback's own id on the platform. */
            reactionExternalId: string;
            senderExternalId: string;
            reaction: components["schemas"]["Tapback"];
            /** @enum {string} */
            action: "added" | "removed";
            reactedAt: components["schemas"]["Time"];
        };
        MessageReactionEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.reaction";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageReaction"];
        };
        MessageEdited: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            senderExternalId: string;
            text: string;
            editedAt: components["schemas"]["Time"];
        };
        MessageEditedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.edited";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageEdited"];
        };
        MessageUnsent: {
            /** Format: uuid */
            conversationId: string;
            messageExternalId: string;
            senderExternalId: string;
            unsentAt: components["schemas"]["Time"];
        };
        MessageUnsentEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "message.unsent";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["MessageUnsent"];
        };
        /**
         * @description The line policy that holds a command.
         * @enum {string}
         */
        HoldPolicy: "quietHours" | "firstContactApproval";
        CommandHeld: {
            /** Format: uuid */
            commandId: string;
            commandType: components["schemas"]["CommandType"];
            policy: components["schemas"]["HoldPolicy"];
            /**
             * Format: uuid
             * @description The command's conversation; null for a recipient send or a group.create.
             */
            conversationId: string | null;
            /**
             * Format: date-time
             * @description Quiet hours: when the window opens in the time zone that applies (the command goes
             *     out within seconds of it, unless the policy changes first). Null for a first contact:
             *     it waits for an operator.
             */
            releasesAt: string | null;
            /** @description Why it is held, for people (not stable; branch on `policy`). */
            reason: string;
        };
        CommandHeldEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "command.held";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["CommandHeld"];
        };
        CommandReleased: {
            /** Format: uuid */
            commandId: string;
            commandType: components["schemas"]["CommandType"];
            policy: components["schemas"]["HoldPolicy"];
            /**
             * @description `window`: quiet hours ended for it (under the policy as it is now). `policy_change`:
             *     an operator turned quiet hours off. `operator`: an operator released it (an approved
             *     first contact, or a quiet-hours hold let through early).
             * @enum {string}
             */
            by: "window" | "policy_change" | "operator";
        };
        CommandReleasedEvent: {
            id: components["schemas"]["EventId"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "command.released";
            time: components["schemas"]["Time"];
            account: components["schemas"]["AccountId"];
            data: components["schemas"]["CommandReleased"];
        };
        /** @description Any account event, discriminated by `type`. */
        StreamEvent: components["schemas"]["CommandSettledEvent"] | components["schemas"]["ConversationAppearedEvent"] | components["schemas"]["MessageReceivedEvent"] | components["schemas"]["MessageSentEvent"] | components["schemas"]["GroupRenamedEvent"] | components["schemas"]["GroupParticipantsChangedEvent"] | components["schemas"]["WebhookEndpointDisabledEvent"] | components["schemas"]["WebhookTestEvent"] | components["schemas"]["PollVotedEvent"] | components["schemas"]["MessageDeliveredEvent"] | components["schemas"]["MessageReadEvent"] | components["schemas"]["MessageFailedEvent"] | components["schemas"]["MessageReactionEvent"] | components["schemas"]["MessageEditedEvent"] | components["schemas"]["MessageUnsentEvent"] | components["schemas"]["CommandHeldEvent"] | components["schemas"]["CommandReleasedEvent"];
        StreamReset: {
            /** @constant */
            reason: "cursor_expired";
            requestedAfter: string;
            /** @description The oldest retained event id; the stream continues from it. */
            oldestId: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export type operations = Record<string, never>;
