// Generated from specs/openapi/switchboard.yaml by tooling (openapi-typescript); do not edit.

export interface paths {
    "/v1/commands/message.send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send text, rich text, a link or a poll
         * @description With a conversation target the command takes the agent-turn path and honours
         *     `Idempotency-Key`. With a recipient target it takes the admin path, ignores the key, and
         *     forwards `payload.text` only: every other payload key is discarded before the command is
         *     stored, silently (a `rich_text` with an `effect` delivers the bare text). To send rich
         *     content to a new contact, send plain text first, wait for `conversation.appeared` on the
         *     stream, then send into that conversation.
         *
         *     The payload's `attachment` and `sticker` kinds need a `transferId`. The service
         *     specification has no endpoint that produces one, so by default such a command settles
         *     `failed` with `transfer_unavailable`. A server with transfers turned on (see "Transfers")
         *     produces them with `POST /v1/transfers`, and the media is sent.
         */
        post: operations["sendMessage"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/reaction.tapback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * React to any message, in a DM or a group
         * @description Agent-turn path; honours `Idempotency-Key`.
         */
        post: operations["applyTapback"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/reaction.apply": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * React to the newest incoming DM message
         * @description Agent-turn path; honours `Idempotency-Key`. Settles `failed` with `no_message_to_react_to`
         *     when the direct conversation has no incoming message, and with
         *     `direct_conversation_required` when aimed at a group.
         */
        post: operations["applyReaction"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/name_photo.share": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Offer the account's contact card in a DM
         * @description Agent-turn path; honours `Idempotency-Key`. Settles `failed` with
         *     `direct_conversation_required` when aimed at a group.
         */
        post: operations["shareNamePhoto"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/group.create": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a group chat
         * @description Admin path: `Idempotency-Key` is accepted and ignored, so a retry creates a second group.
         *     The target is the third target shape, `participants`. The new group is announced on the
         *     stream as `conversation.appeared` once the platform confirms it.
         */
        post: operations["createGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/group.update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rename a group or change its members
         * @description Admin path: `Idempotency-Key` is accepted and ignored. The target must be a group
         *     conversation; a direct conversation is rejected with 400
         *     `group_command_requires_group_conversation`. After a successful `add_participant` the
         *     group's membership no longer matches the resolved conversation: commands to it settle
         *     `stale_target` until a new message arrives in the group. `remove_participant` stalls and
         *     settles `failed` (`group_update_unverified`) on hosts at operating system major version
         *     26; clients must not depend on it. `set_photo` needs a `transferId`: it settles
         *     `transfer_unavailable` unless transfers are turned on (see "Transfers").
         */
        post: operations["updateGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/group.leave": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Leave a group
         * @description Admin path (`Idempotency-Key` ignored), like the other group administration commands.
         *     Like `group.update`, a direct conversation is rejected with 400
         *     `group_command_requires_group_conversation`: leaving a DM has no meaning.
         */
        post: operations["leaveGroup"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/commands/{commandId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A commandId for GET. The same path segment is the `{type}` of the command endpoint, so a
                 *     POST here (any type not among the seven) answers 404 `unknown_command`, and every other
                 *     method but GET (HEAD and extension methods such as PROPFIND included) answers 405
                 *     `method_not_allowed`.
                 */
                commandId: string;
            };
            cookie?: never;
        };
        /**
         * A command's current status and settlement
         * @description A command type's path takes POST only: GET of it is 405 `method_not_allowed` with
         *     `Allow: POST`, as the service specification has every method but POST there. Any other
         *     segment that is not a UUID names no command: 404 `command_not_found`, like an unknown
         *     commandId. A command dropped by retention (30 days after it settled, by default; never
         *     while `queued`) answers the same 404 `command_not_found` (see "Retention"). A `failed`
         *     command says why in `errorMessage` and `errorPath`, for people; `errorCode` is the field to
         *     branch on.
         */
        get: operations["getCommand"];
        /**
         * Any method other than POST on the command endpoint
         * @description PUT, PATCH, DELETE and every other method but GET and POST answer 405 with `Allow: POST`.
         */
        put: operations["putCommandEndpoint"];
        /**
         * An unrecognised command type
         * @description Answers 404 `unknown_command` with `command` = the requested type string.
         */
        post: operations["postUnknownCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's conversations, newest first */
        get: operations["listConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversationId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversationId: string;
            };
            cookie?: never;
        };
        /** One conversation */
        get: operations["getConversation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/conversations/{conversationId}/messages": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversationId: string;
            };
            cookie?: never;
        };
        /**
         * A conversation's messages, newest first, each with its state
         * @description What the account sent and received in the conversation, as the platform reported it:
         *     each message once, with when it was sent, delivered and read, or when and why it
         *     failed, and whether its sender edited or unsent it. For an agent building its context,
         *     without replaying the stream. Messages are kept as long as the stream's events (7 days,
         *     `SWITCHBOARD_EVENT_RETENTION_MS`): they are what the stream reported, and an older
         *     history is the platform's own.
         */
        get: operations["listMessages"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/capabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** What the account's live connector host declared */
        get: operations["getCapabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/attachments/{attachmentId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentId: string;
            };
            cookie?: never;
        };
        /**
         * Download an inbound attachment
         * @description The bytes as the platform delivered them, with the media type the platform reported
         *     (`Content-Type: image/png`, `text/plain`, ...; `application/octet-stream` when unknown), so
         *     the 200 is listed under `*\/*`. `X-Content-Type-Options: nosniff` keeps browsers to it.
         *     Kept 7 days after it arrived (by default, as long as the `message.received` event that
         *     announces it); after that it answers 404 `attachment_not_found`, like an id that never
         *     existed (see "Retention").
         */
        get: operations["getAttachment"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transfers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload media for an attachment, a sticker or a group photo
         * @description Only on a server with transfers turned on (see "Transfers"); otherwise 404
         *     `transfers_disabled`. The body is the media itself, sent with its own `Content-Type`
         *     (`image/png`, `application/pdf`, ...) and streamed to storage as it arrives, so its size is
         *     bounded by the account's limit, not by the body limit of the other routes. A
         *     `Content-Length` over the limit is refused before a byte is read; a chunked body is
         *     counted as it arrives and refused as soon as it passes the limit. Nothing of a refused or
         *     cut-off upload can be named by a command.
         *
         *     The answer carries the `transferId` to put in a payload, the size, the SHA-256 of the
         *     bytes (compare it with your own to check the upload) and when the transfer expires if
         *     no command uses it.
         *
         *     The checks, in order, all before a byte of the body is read: `Authorization` (401) and
         *     the reads' rate limit (429, see "Abuse limits"), transfers turned on (404
         *     `transfers_disabled`), `fileName` (400 `invalid_query`), `Content-Encoding` and
         *     `Content-Type` (415 `transfer_type_invalid`; `identity` is no coding), the account's
         *     allowed types (415 `transfer_type_not_allowed`), `Content-Length` (413
         *     `transfer_too_large`, or 400 `transfer_empty` for 0). A refusal with the body still
         *     arriving closes the connection after the answer. A body with no bytes (chunked, or with
         *     no `Content-Length`) is 400 `transfer_empty` once it ends: there is nothing to send.
         */
        post: operations["createTransfer"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/polls/{pollId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The commandId of the message.send (`kind` `poll`) that sent the poll. */
                pollId: string;
            };
            cookie?: never;
        };
        /**
         * A poll the account sent, with its tallies and voters
         * @description The poll as sent (question, options) and its votes as they stand: each option's tally and
         *     each voter's current choice. A poll is readable once the platform confirmed it sent (its
         *     `message.sent` is on the stream); the votes change as `poll.voted` events arrive. An
         *     unknown id, another account's poll, a command that is not a poll (a plain message), a
         *     poll not yet confirmed sent, and a segment that is not a UUID are all 404
         *     `poll_not_found`.
         */
        get: operations["getPoll"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The response stream
         * @description The account's events in one total order, each with a strictly increasing decimal `id`.
         *     With `Accept: text/event-stream` the response is Server-Sent Events: each event is sent
         *     with `id:`, `event:` (its type) and `data:` (the envelope as JSON); resume with
         *     `Last-Event-ID` (or `?after=`) and get every later event exactly once. A comment line
         *     (`: heartbeat`) is sent every 10 seconds, so a proxy that closes idle connections after
         *     15 seconds never sees one idle; the first block carries `retry: 3000`, so a client
         *     reconnects 3 seconds after the stream drops. If the id to resume from is not in the
         *     account's log (older than the retained events, or past the newest event the account ever
         *     had, as a cursor kept across a database restore or reset is), the stream first sends
         *     `event: reset` whose data is a `StreamReset`, and continues from the oldest retained
         *     event: a client never waits in silence for ids that will not come. Without SSE,
         *     `Accept: application/json` returns one page of at most `limit` events after `after`; such a
         *     cursor answers 410 `cursor_expired` with `oldestId`. Message shapes are specified in
         *     specs/asyncapi/stream.yaml.
         */
        get: operations["getEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The account's webhook endpoints, oldest first */
        get: operations["listWebhookEndpoints"];
        put?: never;
        /**
         * Add a webhook endpoint; the signing secret is shown once
         * @description Delivery starts with the first event committed after the endpoint was created (its cursor
         *     is the account's newest event id); replay moves it back.
         */
        post: operations["createWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getWebhookEndpoint"];
        put?: never;
        post?: never;
        /** Remove an endpoint and its delivery log */
        delete: operations["deleteWebhookEndpoint"];
        options?: never;
        head?: never;
        /**
         * Change an endpoint's URL, description or event filter, or disable or enable it
         * @description Enabling a disabled endpoint resumes delivery at its cursor, with the event that was stuck
         *     when it was disabled, and starts a new 24-hour retry window.
         */
        patch: operations["updateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the signing secret; the old one keeps signing for 24 hours
         * @description Every delivery in the next 24 hours carries two signatures in `webhook-signature`, one per
         *     secret, so a receiver can switch secrets whenever it likes within that window. A second
         *     rotation inside the window drops the oldest secret at once.
         */
        post: operations["rotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        /**
         * The endpoint's delivery log, newest attempt first
         * @description One entry per attempt, kept as long as stream events are (7 days).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-deliver every event after a stream cursor
         * @description Moves the endpoint's cursor to `after`: every retained event with a greater id that
         *     passes the filter is delivered again, in order, with its own `webhook-id`, so a receiver
         *     that de-duplicates sees nothing twice. An attempt under way finishes first. `after` older
         *     than retention or past the account's newest event is 410 `cursor_expired`.
         */
        post: operations["replayWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Append a `webhook.test` event that only this endpoint receives
         * @description The event is appended to the account's stream (SSE readers see it too) and delivered like
         *     any other, in order, whatever the endpoint's filter; other endpoints skip it.
         */
        post: operations["testWebhookEndpoint"];
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
         * @description Every synchronous error code. `x-status` is the HTTP status that carries it; `x-retry` is
         *     the retry guidance: `never` (the request itself must change), `after` (retry the same
         *     request after `Retry-After`), `backoff` (retry with exponential backoff).
         */
        ErrorCode: "body_too_large" | "body_too_deep" | "body_not_object" | "target_and_payload_required" | "unsupported_target" | "invalid_conversationId" | "recipient_send_requires_recipientExternalId_and_text" | "group_create_requires_participantExternalIds" | "invalid_idempotency_key" | "group_command_requires_group_conversation" | "invalid_query" | "bad_request" | "unauthenticated" | "unknown_command" | "conversation_not_found" | "command_not_found" | "attachment_not_found" | "transfers_disabled" | "transfer_incomplete" | "transfer_empty" | "transfer_too_large" | "transfer_type_invalid" | "transfer_type_not_allowed" | "poll_not_found" | "not_found" | "method_not_allowed" | "request_timeout" | "cursor_expired" | "unsupported_media_type" | "invalid_recipient_address" | "invalid_participant_address" | "rate_limited" | "too_many_streams" | "new_contact_limit" | "pacing_limit" | "loop_breaker" | "headers_too_large" | "invalid_body" | "webhook_endpoint_not_found" | "webhook_endpoint_limit" | "webhook_url_refused" | "internal" | "not_implemented" | "no_live_connector" | "outbound_paused";
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
        CommandBadRequest: {
            /** @enum {string} */
            error: "body_too_large" | "body_not_object" | "body_too_deep" | "target_and_payload_required" | "unsupported_target" | "invalid_conversationId" | "invalid_idempotency_key";
            message: string;
            requestId?: string;
        };
        MessageSendBadRequest: {
            /** @enum {string} */
            error: "body_too_large" | "body_not_object" | "body_too_deep" | "target_and_payload_required" | "unsupported_target" | "invalid_conversationId" | "recipient_send_requires_recipientExternalId_and_text" | "invalid_idempotency_key";
            message: string;
            requestId?: string;
        };
        GroupCreateBadRequest: {
            /** @enum {string} */
            error: "body_too_large" | "body_not_object" | "body_too_deep" | "target_and_payload_required" | "unsupported_target" | "group_create_requires_participantExternalIds";
            message: string;
            requestId?: string;
        };
        GroupBadRequest: {
            /** @enum {string} */
            error: "body_too_large" | "body_not_object" | "body_too_deep" | "target_and_payload_required" | "unsupported_target" | "invalid_conversationId" | "group_command_requires_group_conversation";
            message: string;
            requestId?: string;
        };
        UnauthenticatedError: {
            /** @constant */
            error: "unauthenticated";
            message: string;
            requestId?: string;
        };
        UnknownCommandError: {
            /** @constant */
            error: "unknown_command";
            message: string;
            /** @description The requested type string, as sent. */
            command: string;
            requestId?: string;
        };
        MethodNotAllowedError: {
            /** @constant */
            error: "method_not_allowed";
            message: string;
            requestId?: string;
        };
        UnsupportedMediaTypeError: {
            /** @constant */
            error: "unsupported_media_type";
            message: string;
            requestId?: string;
        };
        ConversationNotFoundError: {
            /** @constant */
            error: "conversation_not_found";
            message: string;
            requestId?: string;
        };
        ConversationIdError: {
            /** @constant */
            error: "invalid_conversationId";
            message: string;
            requestId?: string;
        };
        NotFoundError: {
            /** @enum {string} */
            error: "command_not_found" | "attachment_not_found";
            message: string;
            requestId?: string;
        };
        TransferError: {
            /** @enum {string} */
            error: "transfers_disabled" | "transfer_incomplete" | "transfer_empty" | "transfer_too_large" | "transfer_type_invalid" | "transfer_type_not_allowed" | "invalid_query";
            message: string;
            requestId?: string;
        };
        /** @description Uploaded media, named in a payload by its `transferId`. */
        Transfer: {
            /** @description Put it in an `attachment` or `sticker` payload, or a `set_photo` group update. */
            transferId: string;
            fileName: string;
            /** @description The upload's `Content-Type`, lower-cased, without parameters. */
            mimeType: string;
            /** Format: int32 */
            byteSize: number;
            /** @description The SHA-256 of the bytes, lower-case hex. */
            sha256: string;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description A command accepted after this settles `transfer_unavailable`; one accepted before keeps the transfer as long as the command is kept.
             */
            expiresAt: string;
        };
        PollNotFoundError: {
            /** @constant */
            error: "poll_not_found";
            message: string;
            requestId?: string;
        };
        Poll: {
            /**
             * Format: uuid
             * @description The commandId of the message.send that sent the poll.
             */
            pollId: string;
            /** Format: uuid */
            conversationId: string;
            /** @description The poll's message on the platform. */
            messageExternalId: string;
            question: string;
            /** @description The options as sent, in order, each with its tally. */
            options: components["schemas"]["PollOption"][];
            /** @description Everyone holding a vote now, earliest vote first. A withdrawn vote is not listed. Bounded by the conversation's members (at most 1,024). */
            voters: components["schemas"]["PollVoter"][];
            /**
             * Format: date-time
             * @description When the service recorded the poll's `message.sent`.
             */
            sentAt: string;
        };
        PollOption: {
            /** Format: int32 */
            index: number;
            text: string;
            /**
             * Format: int32
             * @description How many voters hold this option now.
             */
            votes: number;
        };
        PollVoter: {
            voterExternalId: string;
            /** Format: int32 */
            optionIndex: number;
            /** Format: date-time */
            votedAt: string;
        };
        /**
         * @description The 422 body. `field` is a JSON Pointer into the request body; `reason` says what was
         *     wrong with the address so a client can tell the person.
         */
        AddressError: {
            /** @enum {string} */
            error: "invalid_recipient_address" | "invalid_participant_address";
            message: string;
            /**
             * @example /target/recipientExternalId
             * @example /target/participantExternalIds/1
             */
            field: string;
            /** @enum {string} */
            reason: "not_a_string" | "not_a_phone_number_or_email" | "invalid_phone_number" | "invalid_email";
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
        /** @description A command refused by the account's new-contact budget or pacing (see "Line policies"). */
        LinePolicyLimitedError: {
            /** @enum {string} */
            error: "new_contact_limit" | "pacing_limit";
            message: string;
            /** @enum {string} */
            policy: "newContacts" | "pacing";
            /**
             * Format: int32
             * @description The limit reached (per hour or per day, as `message` says; per minute).
             */
            limit: number;
            /** Format: int32 */
            retryAfterSeconds: number;
            requestId?: string;
        };
        /** @description A send refused by the account's loop breaker (see "Line policies"); an inbound message in the conversation lifts it. */
        LoopBreakerError: {
            /** @constant */
            error: "loop_breaker";
            message: string;
            /** @constant */
            policy: "loopBreaker";
            /**
             * Format: int32
             * @description The sends in a row allowed with no inbound message between.
             */
            limit: number;
            requestId?: string;
        };
        TooManyStreamsError: {
            /** @constant */
            error: "too_many_streams";
            message: string;
            requestId?: string;
        };
        BadRequestError: {
            /** @constant */
            error: "bad_request";
            message: string;
            requestId?: string;
        };
        /** @description An answer given before any route, after which the connection closes. */
        ProtocolError: {
            /** @enum {string} */
            error: "request_timeout" | "headers_too_large" | "not_implemented";
            message: string;
            requestId?: string;
        };
        InternalError: {
            /** @constant */
            error: "internal";
            message: string;
            requestId?: string;
        };
        UnavailableError: {
            /** @enum {string} */
            error: "no_live_connector" | "outbound_paused";
            message: string;
            requestId?: string;
        };
        NoLiveConnectorError: {
            /** @constant */
            error: "no_live_connector";
            message: string;
            requestId?: string;
        };
        QueryInvalidError: {
            /** @constant */
            error: "invalid_query";
            message: string;
            requestId?: string;
        };
        InvalidBodyError: {
            /** @constant */
            error: "invalid_body";
            message: string;
            requestId?: string;
        };
        WebhookUrlRefusedError: {
            /** @constant */
            error: "webhook_url_refused";
            message: string;
            requestId?: string;
        };
        WebhookEndpointLimitError: {
            /** @constant */
            error: "webhook_endpoint_limit";
            message: string;
            requestId?: string;
        };
        WebhookEndpointNotFoundError: {
            /** @constant */
            error: "webhook_endpoint_not_found";
            message: string;
            requestId?: string;
        };
        /**
         * @description The stream event types delivered (see specs/asyncapi/stream.yaml); null or absent means
         *     every type. `webhook.test` events reach the endpoint they name whatever the filter.
         */
        WebhookEventTypes: string[] | null;
        WebhookEndpointCreate: {
            /** @description Where deliveries are POSTed (see "Webhook delivery" for the URLs allowed). */
            url: string;
            eventTypes?: components["schemas"]["WebhookEventTypes"];
            description?: string | null;
        };
        WebhookEndpointUpdate: {
            url?: string;
            eventTypes?: components["schemas"]["WebhookEventTypes"];
            description?: string | null;
            /** @description false disables the endpoint (nothing is delivered, events keep queueing at its cursor); true enables it. */
            enabled?: boolean;
        };
        WebhookReplay: {
            /** @description A stream cursor (an event id, `0` for the start of the retained log). */
            after: string;
        };
        WebhookEndpoint: {
            /** Format: uuid */
            id: string;
            url: string;
            description: string | null;
            eventTypes: components["schemas"]["WebhookEventTypes"];
            enabled: boolean;
            /**
             * @description `failing` (disabled after 24 hours of failed attempts) or `operator` (a PATCH or the CLI); null while enabled.
             * @enum {string|null}
             */
            disabledReason: "failing" | "operator" | null;
            /** Format: date-time */
            disabledAt: string | null;
            /** @description The id of the last event acknowledged (or skipped by the filter); delivery continues after it. */
            cursor: string;
            /**
             * Format: int32
             * @description Stream events after the cursor, before the filter is applied.
             */
            backlog: number;
            /** Format: date-time */
            createdAt: string;
            /**
             * Format: date-time
             * @description Until then, deliveries are also signed with the secret a rotation replaced.
             */
            previousSecretExpiresAt: string | null;
        };
        WebhookEndpointWithSecret: components["schemas"]["WebhookEndpoint"] & {
            /** @description The Standard Webhooks signing secret. Shown once. */
            secret: string;
        };
        WebhookEndpointList: {
            endpoints: components["schemas"]["WebhookEndpoint"][];
        };
        WebhookDelivery: {
            eventId: string;
            /**
             * Format: int32
             * @description 1 for the first attempt at this event since it became due (a replay starts again at 1).
             */
            attempt: number;
            /** Format: date-time */
            at: string;
            /**
             * Format: int32
             * @description The receiver's HTTP status; null when no response arrived.
             */
            status: number | null;
            /** @description Why no response arrived: `timeout`, `address_refused` (SSRF rules), `dns`, `connection` and a detail. */
            error: string | null;
            /** Format: int32 */
            latencyMs: number;
        };
        WebhookDeliveryPage: {
            deliveries: components["schemas"]["WebhookDelivery"][];
            nextCursor: string | null;
        };
        WebhookTestAccepted: {
            /** @description The `webhook.test` event's id (its `webhook-id`). */
            eventId: string;
        };
        CursorExpiredError: {
            /** @constant */
            error: "cursor_expired";
            message: string;
            /** @description The oldest retained event id; resume with `after` = one less than it. */
            oldestId: string;
            requestId?: string;
        };
        /** @enum {string} */
        CommandType: "message.send" | "reaction.tapback" | "reaction.apply" | "name_photo.share" | "group.create" | "group.update" | "group.leave";
        /** @enum {string} */
        RoutingPath: "agent-turn" | "admin";
        /**
         * @description `queued` until the connector host settles the command, then `succeeded` or `failed`.
         *     `held` only where an operator turned on a line policy that holds (quiet hours, first-contact
         *     approval): accepted, not dispatched until released (then `queued`) or rejected (then
         *     `failed`). See "Line policies".
         * @enum {string}
         */
        CommandStatus: "queued" | "succeeded" | "failed" | "held";
        /**
         * @description The line policy that holds a command (see "Line policies").
         * @enum {string}
         */
        HoldPolicy: "quietHours" | "firstContactApproval";
        /**
         * @description `queued`: new work was created. `adopted`: the Idempotency-Key was already known; no new work.
         * @enum {string}
         */
        Disposition: "queued" | "adopted";
        /**
         * Format: uuid
         * @description A UUIDv7.
         */
        CommandId: string;
        Acknowledgement: {
            commandId: components["schemas"]["CommandId"];
            status: components["schemas"]["CommandStatus"];
            disposition: components["schemas"]["Disposition"];
        };
        ConversationTarget: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "conversation";
            /** Format: uuid */
            conversationId: string;
        };
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
         * @description The full-screen effects the platform offers.
         * @enum {string}
         */
        ScreenEffect: "balloons" | "confetti" | "love" | "lasers" | "fireworks" | "celebration" | "echo" | "spotlight";
        /** @enum {string} */
        Tapback: "love" | "like" | "dislike" | "laugh" | "emphasize" | "question";
        /** @description Plain text. Omits `kind`. */
        TextPayload: {
            text: string;
        };
        RichTextPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "rich_text";
            text: string;
            /** @description The subject line, shown in bold above the text. Optional. */
            subject?: string;
            effect?: components["schemas"]["ScreenEffect"];
            /** @description The message to thread under. Optional. */
            replyToMessageExternalId?: string;
        };
        RichLinkPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "rich_link";
            /** Format: uri */
            url: string;
        };
        PollPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "poll";
            question: string;
            options: string[];
        };
        /** @description Media uploaded with `POST /v1/transfers`. Settles `transfer_unavailable` when transfers are off (see "Transfers"). */
        AttachmentPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "attachment";
            transferId: string;
        };
        /** @description An image uploaded with `POST /v1/transfers`, sent as a sticker. Settles `transfer_unavailable` when transfers are off or the transfer is not an image (see "Transfers"). */
        StickerPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            kind: "sticker";
            transferId: string;
        };
        /** @description The rich kinds, discriminated by `kind`. */
        RichPayload: components["schemas"]["RichTextPayload"] | components["schemas"]["RichLinkPayload"] | components["schemas"]["PollPayload"] | components["schemas"]["AttachmentPayload"] | components["schemas"]["StickerPayload"];
        /** @description Plain text (no `kind`) or one of the rich kinds. */
        MessageSendPayload: components["schemas"]["TextPayload"] | components["schemas"]["RichPayload"];
        /**
         * @description A recipient send carries plain text only. The service stores `text` and discards every
         *     other key.
         */
        RecipientSendPayload: {
            text: string;
        };
        MessageSendToConversation: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["MessageSendPayload"];
        };
        MessageSendToRecipient: {
            target: components["schemas"]["RecipientTarget"];
            payload: components["schemas"]["RecipientSendPayload"];
        };
        MessageSendRequest: components["schemas"]["MessageSendToConversation"] | components["schemas"]["MessageSendToRecipient"];
        ReactionTapbackPayload: {
            /** @description The message to react to, in a DM or a group. */
            messageExternalId: string;
            tapback: components["schemas"]["Tapback"];
            /** @description Take an earlier tapback of this kind back. Defaults to false. */
            remove?: boolean;
        };
        ReactionTapbackRequest: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["ReactionTapbackPayload"];
        };
        /** @description Reacts to the newest incoming message of the direct conversation. */
        ReactionApplyPayload: {
            tapback: components["schemas"]["Tapback"];
        };
        ReactionApplyRequest: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["ReactionApplyPayload"];
        };
        /** @description No fields; the card shared is the account's own. */
        NamePhotoSharePayload: Record<string, never>;
        NamePhotoShareRequest: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["NamePhotoSharePayload"];
        };
        /**
         * @description `text` is the group's first message: on the platform a group exists once a message is
         *     sent to its members. `name` is optional.
         */
        GroupCreatePayload: {
            text: string;
            name?: string;
        };
        GroupCreateRequest: {
            target: components["schemas"]["ParticipantsTarget"];
            payload: components["schemas"]["GroupCreatePayload"];
        };
        /** @description No fields. */
        GroupLeavePayload: Record<string, never>;
        GroupLeaveRequest: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["GroupLeavePayload"];
        };
        GroupRenamePayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "rename";
            name: string;
        };
        GroupAddParticipantPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "add_participant";
            participantExternalId: string;
        };
        /** @description Names the member to remove by address, as add_participant does. */
        GroupRemoveParticipantPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "remove_participant";
            participantExternalId: string;
        };
        /** @description An image uploaded with `POST /v1/transfers`, set as the group's photo. Settles `transfer_unavailable` when transfers are off or the transfer is not an image (see "Transfers"). */
        GroupSetPhotoPayload: {
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            action: "set_photo";
            transferId: string;
        };
        GroupUpdatePayload: components["schemas"]["GroupRenamePayload"] | components["schemas"]["GroupAddParticipantPayload"] | components["schemas"]["GroupRemoveParticipantPayload"] | components["schemas"]["GroupSetPhotoPayload"];
        GroupUpdateRequest: {
            target: components["schemas"]["ConversationTarget"];
            payload: components["schemas"]["GroupUpdatePayload"];
        };
        Target: components["schemas"]["ConversationTarget"] | components["schemas"]["RecipientTarget"] | components["schemas"]["ParticipantsTarget"];
        /**
         * @description Why the command failed, in words, for people: the payload validator's issues or the
         *     platform's reason, as the connector host reported it. Null unless the command settled
         *     `failed` (and null if the host gave no reason). Not stable: the wording may change in any
         *     release, so branch on `errorCode`. At most 1,024 characters; a longer message is cut to
         *     1,023 and ends with `…`.
         * @example /payload/txt: Unrecognized key: "txt"; /payload/text: Invalid input: expected string, received undefined
         */
        ErrorMessage: string | null;
        /**
         * @description Where in the request body the failure is, as a JSON Pointer (RFC 6901) into the body as
         *     posted (`/payload/...`, `/target/...`): the first problem the host found, a misspelled
         *     key itself for an unrecognized key. Null when the failure is not about one place (the
         *     platform refused the send) or the command did not fail. For people, like
         *     `errorMessage`; at most 1,024 characters, a longer pointer shortened to its nearest
         *     ancestor that fits.
         * @example /payload/txt
         * @example /payload/options
         * @example /target/kind
         */
        ErrorPath: string | null;
        StatusChange: {
            status: components["schemas"]["CommandStatus"];
            /** Format: date-time */
            at: string;
        };
        Command: {
            commandId: components["schemas"]["CommandId"];
            type: components["schemas"]["CommandType"];
            routingPath: components["schemas"]["RoutingPath"];
            status: components["schemas"]["CommandStatus"];
            target: components["schemas"]["Target"];
            /** @description The payload as stored (for a recipient send, only `text`). */
            payload: {
                [key: string]: unknown;
            };
            logicalActionId: string;
            /** @description The key the agent-turn path honoured, else null. */
            idempotencyKey?: string | null;
            /**
             * Format: uuid
             * @description The conversation the command acted on, or the one it created (a recipient send or a
             *     group.create, once the platform confirmed it); null until there is one.
             */
            conversationId: string | null;
            /** @description Null unless the command settled `failed`. The stable field to branch on. */
            errorCode: components["schemas"]["SettlementCode"] | null;
            errorMessage: components["schemas"]["ErrorMessage"];
            errorPath: components["schemas"]["ErrorPath"];
            /** Format: date-time */
            createdAt: string;
            /** Format: date-time */
            settledAt: string | null;
            /** @description The line policy holding the command while its `status` is `held`; null otherwise. */
            heldBy: components["schemas"]["HoldPolicy"] | null;
            /** @description Each status the command had, from `held` or `queued` on, with when it began. */
            history: components["schemas"]["StatusChange"][];
            /**
             * @description The message the command sent (a message.send, a group.create's first message), once
             *     the platform confirmed it: when it was sent, delivered and read, or when and why it
             *     failed after its settlement. Null for other commands, and until the echo.
             */
            message?: components["schemas"]["Message"] | null;
        };
        /** @enum {string} */
        ConversationKind: "direct" | "group";
        Participant: {
            /** @description The participant's address (E.164 phone number or email). */
            externalId: string;
        };
        Conversation: {
            /** Format: uuid */
            conversationId: string;
            kind: components["schemas"]["ConversationKind"];
            /** @description The group's name; null for a direct conversation or an unnamed group. */
            name: string | null;
            /** @description The other people in the conversation (the account itself is not listed). */
            participants: components["schemas"]["Participant"][];
            /** Format: date-time */
            createdAt: string;
        };
        /**
         * @description Why a message the platform took failed afterwards (`message.failed`):
         *     - `not_delivered`: the platform reports the message was not delivered (iMessage's red
         *       exclamation mark); its words are in `platformMessage`.
         *     - `recipient_unreachable`: the platform says the recipient cannot receive it (the address
         *       is not on the service).
         * @enum {string}
         */
        MessageFailureReason: "not_delivered" | "recipient_unreachable";
        MessageFailure: {
            reason: components["schemas"]["MessageFailureReason"];
            /** @description The platform's own words or error code, for people; not stable. */
            platformMessage: string | null;
        };
        /**
         * @description One message of a conversation and its state. A settled command is never settled again:
         *     a send that settled `succeeded` (the platform took the message and echoed it) and then
         *     failed keeps its settlement, and shows the failure here (`failedAt`, `failure`) and as
         *     `message.failed` on the stream. The settlement is the command's one outcome, which
         *     retries and idempotency rest on, and the service specification has no transition out of
         *     `succeeded`; what became of the message after it is the message's state.
         */
        Message: {
            messageExternalId: string;
            /** Format: uuid */
            conversationId: string;
            /**
             * @description `outbound`: the account sent it; `inbound`: someone else did.
             * @enum {string}
             */
            direction: "outbound" | "inbound";
            /**
             * Format: uuid
             * @description The command that sent it; null for inbound messages, and for the account's messages sent elsewhere.
             */
            commandId: string | null;
            /** @description Who sent an inbound message; null for the account's own. */
            senderExternalId: string | null;
            /** @description The text as it stands (after an edit, the edited text; null once unsent, and for a message without text). */
            text: string | null;
            attachments: components["schemas"]["AttachmentRef"][];
            /**
             * Format: date-time
             * @description When the platform confirmed the account's message, or received someone else's; null when only a later state was reported.
             */
            sentAt: string | null;
            /** Format: date-time */
            deliveredAt: string | null;
            /**
             * Format: date-time
             * @description Direct conversations only; iMessage keeps no read receipts in groups.
             */
            readAt: string | null;
            /** Format: date-time */
            failedAt: string | null;
            failure: components["schemas"]["MessageFailure"] | null;
            /** Format: date-time */
            editedAt: string | null;
            /** Format: date-time */
            unsentAt: string | null;
        };
        AttachmentRef: {
            /** @description Downloads from `GET /v1/attachments/{attachmentId}` while it is kept. */
            attachmentId: string;
            fileName: string;
            mimeType: string;
            /** Format: int32 */
            byteSize: number;
        };
        MessagePage: {
            messages: components["schemas"]["Message"][];
            nextCursor: string | null;
        };
        ConversationPage: {
            conversations: components["schemas"]["Conversation"][];
            nextCursor: string | null;
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
        CapabilityReport: {
            hostId: string;
            /** Format: int32 */
            osMajorVersion: number;
            capabilities: components["schemas"]["Capability"][];
            /** Format: date-time */
            leaseExpiresAt: string;
        };
        /** @description A page of stream events; each item is an envelope from specs/asyncapi/stream.yaml. */
        EventPage: {
            events: {
                id: string;
                type: string;
                /** Format: date-time */
                time: string;
                account: string;
                data: {
                    [key: string]: unknown;
                };
            }[];
            /** @description Pass as `after` to get the next page; equals `after` when there was nothing new. */
            nextAfter: string;
        };
    };
    responses: {
        /** @description The command is durably queued (or an earlier identical one was adopted). */
        Accepted: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                "X-Request-Id": components["headers"]["RequestId"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Acknowledgement"];
            };
        };
        /** @description The envelope is invalid. */
        CommandBadRequest: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["CommandBadRequest"];
            };
        };
        /** @description The envelope is invalid, or the target is a direct conversation. */
        GroupBadRequest: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["GroupBadRequest"];
            };
        };
        /** @description No credential, or one the service does not know. */
        Unauthenticated: {
            headers: {
                "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnauthenticatedError"];
            };
        };
        /** @description The conversation is unknown, or belongs to another account. */
        ConversationNotFound: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ConversationNotFoundError"];
            };
        };
        /** @description The command endpoint accepts POST only. */
        MethodNotAllowed: {
            headers: {
                Allow: components["headers"]["Allow"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["MethodNotAllowedError"];
            };
        };
        /** @description The body is not sent as `application/json`. */
        UnsupportedMediaType: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnsupportedMediaTypeError"];
            };
        };
        /** @description An address in the target is not a valid phone number or email address. */
        AddressInvalid: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AddressError"];
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
        /** @description Over a rate limit (`rate_limited`, see "Abuse limits": `RateLimit-Policy` names which one), or refused by the account's new-contact budget or pacing (`new_contact_limit`, `pacing_limit`, see "Line policies"). Each carries `Retry-After`. */
        CommandRateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"] | components["schemas"]["LinePolicyLimitedError"];
            };
        };
        /** @description Refused by the account's loop breaker (`loop_breaker`, see "Line policies"): no `Retry-After`, since waiting does not lift it; an inbound message in the conversation does. */
        LoopBreaker: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["LoopBreakerError"];
            };
        };
        /** @description Over the read limit (`rate_limited`, with `Retry-After`), or a sixth open SSE stream on this credential (`too_many_streams`, no `Retry-After`: close a stream first). */
        EventsRateLimited: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["RateLimitedError"] | components["schemas"]["TooManyStreamsError"];
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
        /** @description Sending is paused, or no connector host holds a live lease for the account. */
        Unavailable: {
            headers: {
                "Retry-After": components["headers"]["RetryAfter"];
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UnavailableError"];
            };
        };
        /** @description A query parameter is invalid. */
        QueryInvalid: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["QueryInvalidError"];
            };
        };
        /** @description The request is malformed: not well-formed HTTP/1.1, or a path that is not valid percent-encoding. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["BadRequestError"];
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
        /** @description The request line and headers are over 16 KiB; the connection closes. */
        HeadersTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["ProtocolError"];
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
        /** @description The body is not a JSON object matching the operation's schema. */
        WebhookBodyInvalid: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["InvalidBodyError"];
            };
        };
        /** @description The URL is not one deliveries may go to (see "Webhook delivery"). */
        WebhookUrlRefused: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WebhookUrlRefusedError"];
            };
        };
        /** @description The account already has 20 endpoints. */
        WebhookEndpointLimit: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WebhookEndpointLimitError"];
            };
        };
        /** @description The endpoint is unknown, or belongs to another account. */
        WebhookEndpointNotFound: {
            headers: {
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["WebhookEndpointNotFoundError"];
            };
        };
    };
    parameters: {
        /**
         * @description The agent-turn operations: honoured and checked. A key already known for the account returns 202
         *     `adopted` with the original commandId and its current status; one outside the pattern is
         *     400 `invalid_idempotency_key`. Kept for 48 hours.
         */
        IdempotencyKey: string;
        /**
         * @description message.send routes by target, so what the server does with the key depends on the body,
         *     which a header schema cannot see. With a conversation target (agent-turn) it is honoured and
         *     checked: 1-255 printable ASCII characters (`^[\x21-\x7E]+$`), else 400
         *     `invalid_idempotency_key`; a known key returns 202 `adopted`. With a recipient target
         *     (admin) it is accepted unchecked and ignored, as the service specification says, so the
         *     schema allows any value.
         */
        IdempotencyKeyByTarget: string;
        /**
         * @description Admin path: accepted and ignored, whatever its value (never checked, never a 400), so a
         *     retry creates new work. Listed so that clients sending one key on every command are not
         *     refused by a validating gateway.
         */
        IdempotencyKeyIgnored: string;
        /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
        WebhookEndpointId: string;
    };
    requestBodies: never;
    headers: {
        /**
         * @description The quota that counted the request: `"default";q=60;w=60` (the command endpoint),
         *     `"read";q=600;w=60` (the reads) or `"auth";q=20;w=60` (failed authentication, on a 429).
         */
        RateLimitPolicy: string;
        /** @description What is left: `"<policy>";r=<remaining>;t=<seconds until a slot frees>`. */
        RateLimit: string;
        /** @description Seconds until a request would be counted again. */
        RetryAfter: number;
        /** @description The scheme that would work (RFC 9110 §15.5.2): always `Bearer`. */
        WWWAuthenticate: "Bearer";
        /** @description The request's id, also in every error body and in the logs. */
        RequestId: string;
        /** @description The methods the command endpoint accepts. */
        Allow: "POST";
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    sendMessage: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description message.send routes by target, so what the server does with the key depends on the body,
                 *     which a header schema cannot see. With a conversation target (agent-turn) it is honoured and
                 *     checked: 1-255 printable ASCII characters (`^[\x21-\x7E]+$`), else 400
                 *     `invalid_idempotency_key`; a known key returns 202 `adopted`. With a recipient target
                 *     (admin) it is accepted unchecked and ignored, as the service specification says, so the
                 *     schema allows any value.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyByTarget"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["MessageSendRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            /** @description The envelope is invalid. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessageSendBadRequest"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["AddressInvalid"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    applyTapback: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The agent-turn operations: honoured and checked. A key already known for the account returns 202
                 *     `adopted` with the original commandId and its current status; one outside the pattern is
                 *     400 `invalid_idempotency_key`. Kept for 48 hours.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReactionTapbackRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            400: components["responses"]["CommandBadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    applyReaction: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The agent-turn operations: honoured and checked. A key already known for the account returns 202
                 *     `adopted` with the original commandId and its current status; one outside the pattern is
                 *     400 `invalid_idempotency_key`. Kept for 48 hours.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["ReactionApplyRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            400: components["responses"]["CommandBadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    shareNamePhoto: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description The agent-turn operations: honoured and checked. A key already known for the account returns 202
                 *     `adopted` with the original commandId and its current status; one outside the pattern is
                 *     400 `invalid_idempotency_key`. Kept for 48 hours.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NamePhotoShareRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            400: components["responses"]["CommandBadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    createGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Admin path: accepted and ignored, whatever its value (never checked, never a 400), so a
                 *     retry creates new work. Listed so that clients sending one key on every command are not
                 *     refused by a validating gateway.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyIgnored"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupCreateRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            /** @description The envelope is invalid. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GroupCreateBadRequest"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            422: components["responses"]["AddressInvalid"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    updateGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Admin path: accepted and ignored, whatever its value (never checked, never a 400), so a
                 *     retry creates new work. Listed so that clients sending one key on every command are not
                 *     refused by a validating gateway.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyIgnored"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupUpdateRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            400: components["responses"]["GroupBadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    leaveGroup: {
        parameters: {
            query?: never;
            header?: {
                /**
                 * @description Admin path: accepted and ignored, whatever its value (never checked, never a 400), so a
                 *     retry creates new work. Listed so that clients sending one key on every command are not
                 *     refused by a validating gateway.
                 */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKeyIgnored"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["GroupLeaveRequest"];
            };
        };
        responses: {
            202: components["responses"]["Accepted"];
            400: components["responses"]["GroupBadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["LoopBreaker"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["CommandRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            503: components["responses"]["Unavailable"];
        };
    };
    getCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A commandId for GET. The same path segment is the `{type}` of the command endpoint, so a
                 *     POST here (any type not among the seven) answers 404 `unknown_command`, and every other
                 *     method but GET (HEAD and extension methods such as PROPFIND included) answers 405
                 *     `method_not_allowed`.
                 */
                commandId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The command. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Command"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No such command for this account, or one dropped by retention. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    putCommandEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A commandId for GET. The same path segment is the `{type}` of the command endpoint, so a
                 *     POST here (any type not among the seven) answers 404 `unknown_command`, and every other
                 *     method but GET (HEAD and extension methods such as PROPFIND included) answers 405
                 *     `method_not_allowed`.
                 */
                commandId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            405: components["responses"]["MethodNotAllowed"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    postUnknownCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /**
                 * @description A commandId for GET. The same path segment is the `{type}` of the command endpoint, so a
                 *     POST here (any type not among the seven) answers 404 `unknown_command`, and every other
                 *     method but GET (HEAD and extension methods such as PROPFIND included) answers 405
                 *     `method_not_allowed`.
                 */
                commandId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description The type is not a command type. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UnknownCommandError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    listConversations: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `nextCursor` of the previous page (a conversation id); anything else is 400 `invalid_query`. */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    getConversation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                conversationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The conversation. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Conversation"];
                };
            };
            /** @description The id is not a UUID. */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationIdError"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    listMessages: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `nextCursor` of the previous page; anything else is 400 `invalid_query`. */
                cursor?: string;
            };
            header?: never;
            path: {
                conversationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of messages. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["MessagePage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["ConversationNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    getCapabilities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The live host and its capabilities. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CapabilityReport"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
            /** @description No connector host holds a live lease for the account. */
            503: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NoLiveConnectorError"];
                };
            };
        };
    };
    getAttachment: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                attachmentId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The attachment. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": string;
                    "*/*": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No such attachment for this account, or one dropped by retention. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["NotFoundError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    createTransfer: {
        parameters: {
            query: {
                /** @description The name the recipient sees (`invoice.pdf`). Text rules apply; no `/`, `\\` or control characters, and not `.` or `..`. */
                fileName: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "*/*": string;
            };
        };
        responses: {
            /** @description Stored; the `transferId` can be named by a command until `expiresAt`. */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transfer"];
                };
            };
            /** @description The body ended before its `Content-Length` (`transfer_incomplete`), had no bytes (`transfer_empty`), or `fileName` is missing or invalid (`invalid_query`). */
            400: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferError"];
                };
            };
            401: components["responses"]["Unauthenticated"];
            /** @description Transfers are turned off on this server. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description Over the account's size limit; nothing was stored. */
            413: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferError"];
                };
            };
            /** @description No `Content-Type`, a malformed one, a `Content-Encoding`, or a media type the account does not allow. */
            415: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferError"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    getPoll: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The commandId of the message.send (`kind` `poll`) that sent the poll. */
                pollId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The poll. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Poll"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No poll the account sent has this id. */
            404: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PollNotFoundError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    getEvents: {
        parameters: {
            query?: {
                /**
                 * @description Return events with an id greater than this. `0` (the default) is the start: a new
                 *     client gets every retained event and never a reset or a 410. `now` is the stream's
                 *     current head: nothing retained is replayed, the JSON form answers no events and the
                 *     head's cursor as `nextAfter`, and the SSE form first sends that cursor as an `id:`
                 *     line with no data, so an EventSource that reconnects resumes from it. Any other value
                 *     the pattern allows is a cursor, never refused with a 400; one past the account's newest
                 *     event (any above 2^53 among them: ids stay below it) is from another log and answers
                 *     410 `cursor_expired` (SSE: a reset), like one older than retention.
                 */
                after?: string;
                /** @description JSON form only. */
                limit?: number;
            };
            header?: {
                /**
                 * @description SSE form; takes precedence over `after` when not empty (an empty value means no id, as
                 *     in the SSE spec). Checked whatever the form (400 `invalid_query`), though only the SSE
                 *     form reads it.
                 */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events (JSON) or the live stream (SSE). */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            /** @description The cursor is not in the account's log (older than retention, or past the newest event); restart from `oldestId`. */
            410: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CursorExpiredError"];
                };
            };
            429: components["responses"]["EventsRateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every endpoint of the account (at most 20). */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    createWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointCreate"];
            };
        };
        responses: {
            /** @description The endpoint, with its signing secret (not shown again). */
            201: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["WebhookBodyInvalid"];
            401: components["responses"]["Unauthenticated"];
            408: components["responses"]["RequestTimeout"];
            409: components["responses"]["WebhookEndpointLimit"];
            422: components["responses"]["WebhookUrlRefused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    getWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    deleteWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Removed; no delivery to it starts after this. */
            204: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    updateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointUpdate"];
            };
        };
        responses: {
            /** @description The endpoint as changed. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["WebhookBodyInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            422: components["responses"]["WebhookUrlRefused"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    rotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, with its new secret (not shown again). */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                /** @description The `nextCursor` of the previous page; anything else is 400 `invalid_query`. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookDeliveryPage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    replayWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookReplay"];
            };
        };
        responses: {
            /** @description The endpoint with its new cursor. */
            200: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["WebhookBodyInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `after` is not in the account's log (older than retention, or past its newest event). */
            410: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CursorExpiredError"];
                };
            };
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    testWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description An endpoint id; one of another account, or not a UUID, is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["WebhookEndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is committed; its delivery follows. */
            202: {
                headers: {
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["WebhookEndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
}
