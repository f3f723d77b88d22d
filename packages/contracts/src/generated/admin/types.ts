// Generated from specs/openapi/admin.yaml by tooling (openapi-typescript); do not edit.

export interface paths {
    "/v1/admin/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Figures for the overview page
         * @description Counts of accounts and hosts, whether every account's outbound sending is paused, the
         *     commands accepted and settled in each of the last `minutes` minutes, and the failed
         *     settlements of that window by settlement code.
         */
        get: operations["adminOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account, oldest first */
        get: operations["adminListAccounts"];
        put?: never;
        /** Create an account */
        post: operations["adminCreateAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /** One account, with its lease */
        get: operations["adminGetAccount"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause the account's outbound sending
         * @description Its outbound commands answer 503 `outbound_paused` until it is resumed. Pausing a paused account changes nothing, and answers the same.
         */
        post: operations["adminPauseAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/resume": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Resume the account's outbound sending
         * @description A pause of every account (`/v1/admin/outbound/pause`) still holds it.
         */
        post: operations["adminResumeAccount"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/policies": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * The account's line policies
         * @description What specs/openapi/switchboard.yaml ("Line policies") enforces for the account; every policy is off (null) until an operator sets it.
         */
        get: operations["adminGetPolicies"];
        /**
         * Replace the account's line policies
         * @description The body is the whole set: a policy left out or null is off. It applies to the next
         *     command the account sends; what was counted before (the sends of the last minute, hour,
         *     day) counts under the new limits.
         */
        put: operations["adminSetPolicies"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/outbound/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Pause outbound sending for every account */
        post: operations["adminPauseAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/outbound/resume": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the pause of every account
         * @description Accounts paused one by one stay paused.
         */
        post: operations["adminResumeAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/keys": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /** The account's API keys and connector keys, revoked ones included */
        get: operations["adminListKeys"];
        put?: never;
        /**
         * Create an API key or a connector key for the account
         * @description The answer holds the secret; it is never shown again (only its SHA-256 is kept).
         */
        post: operations["adminCreateKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an API key or a connector key at once
         * @description Its next request answers 401. Revoking a revoked key changes nothing, and answers the same.
         */
        post: operations["adminRevokeKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/operator-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every operator key, revoked ones included */
        get: operations["adminListOperatorKeys"];
        put?: never;
        /**
         * Create an operator key
         * @description The answer holds the secret; it is never shown again.
         */
        post: operations["adminCreateOperatorKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/session": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The operator key making this request
         * @description What a client (the console) shows of who it is signed in as, and whether it may make changes.
         */
        get: operations["adminSession"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/operator-keys/{keyId}/revoke": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke an operator key at once
         * @description A key may revoke itself; its next request answers 401.
         */
        post: operations["adminRevokeOperatorKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/hosts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every account's lease and the connector host that holds or held it */
        get: operations["adminListHosts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/conversations": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /** The account's conversations, as its clients see them */
        get: operations["adminListConversations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/transfer-limits": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * The account's transfer limits
         * @description What `POST /v1/transfers` accepts from the account (specs/openapi/switchboard.yaml, "Transfers"). The defaults until an operator sets them.
         */
        get: operations["adminGetTransferLimits"];
        /**
         * Replace the account's transfer limits
         * @description Applies to the next upload; transfers already stored stay usable.
         */
        put: operations["adminSetTransferLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/policies/usage": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * Where the account stands against its line policies
         * @description What the policies count now: the first contacts of the last hour and day, whether quiet
         *     hours hold new commands (in the account's time zone) and until when, and the commands each
         *     hold policy holds. With `conversationId`, also that conversation's sends of the last minute
         *     (pacing) and its sends since its newest inbound message (the loop breaker).
         */
        get: operations["adminGetPolicyUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/commands": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Commands of every account or one, newest first, filtered
         * @description Every filter is optional and they combine. Settled commands are kept as long as retention
         *     keeps them (`SWITCHBOARD_COMMAND_RETENTION_HOURS`).
         */
        get: operations["adminListCommands"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/commands/{commandId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                commandId: string;
            };
            cookie?: never;
        };
        /** One command of any account, and its timeline */
        get: operations["adminGetCommand"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/commands/{commandId}/release": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A command of any account; an id of no command is 404 `command_not_found`. */
                commandId: components["parameters"]["CommandId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Release a held command
         * @description Approves a first contact, or lets a quiet-hours hold through early: the command becomes
         *     `queued`, a `command.released` event (`by`: `operator`) is appended, and it goes to the
         *     connector host in the order it was accepted. A first contact released during quiet hours is
         *     held again, by quiet hours (a `command.held` event). Audited as `command.release`. No body.
         */
        post: operations["adminReleaseCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/commands/{commandId}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A command of any account; an id of no command is 404 `command_not_found`. */
                commandId: components["parameters"]["CommandId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a held command
         * @description Settles the held command `failed`, with `first_contact_rejected` or `quiet_hours_rejected`
         *     (the policy that held it) and `reason` as its `errorMessage`; its `command.settled` event
         *     is appended. Nothing is sent. A rejected first contact gives back its unit of the
         *     new-contact budget and leaves its addresses new. Audited as `command.reject`.
         */
        post: operations["adminRejectCommand"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/events": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /**
         * The account's response stream
         * @description What `GET /v1/events` answers the account's own clients, in both forms (JSON pages, or
         *     Server-Sent Events with `Accept: text/event-stream`), with the same `after`, `limit` and
         *     `Last-Event-ID`. An operator key may hold as many open streams of one account as an API
         *     key may (`SWITCHBOARD_MAX_STREAMS_PER_CREDENTIAL`); one more is 429 `too_many_streams`.
         */
        get: operations["adminGetEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Webhook endpoints of every account, by state */
        get: operations["adminListAllWebhookEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        /** The account's webhook endpoints */
        get: operations["adminListWebhookEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["adminGetWebhookEndpoint"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Enable or disable an endpoint
         * @description Disabling stops its deliveries (`disabledReason: operator`); enabling resumes them from its
         *     cursor with a new retry window, as the account's own `PATCH` does.
         */
        patch: operations["adminUpdateWebhookEndpoint"];
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the endpoint's signing secret
         * @description As the account's own rotation does, the old secret keeps signing alongside the new one for the overlap (24 hours by default).
         */
        post: operations["adminRotateWebhookSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        /** The endpoint's attempts log, newest first, with each response */
        get: operations["adminListWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver one event to the endpoint again, now
         * @description One attempt, made before the answer, with the event's own `webhook-id` (a receiver that
         *     de-duplicates keeps the first) and a fresh signature. It is logged with the endpoint's
         *     attempts and answered; the endpoint's cursor and retry state do not change, so its
         *     deliveries in order go on as they were. The event must be retained in the account's log;
         *     a disabled endpoint is resent to all the same (that is how an operator checks a repair).
         */
        post: operations["adminResendWebhookEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-deliver every event after a stream cursor
         * @description What the account's own `POST /v1/webhook-endpoints/{endpointId}/replay` does.
         */
        post: operations["adminReplayWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/accounts/{accountId}/webhook-endpoints/{endpointId}/test": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Append a `webhook.test` event that only this endpoint receives
         * @description What the account's own `POST /v1/webhook-endpoints/{endpointId}/test` does.
         */
        post: operations["adminTestWebhookEndpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/admin/audit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The audit log, newest first */
        get: operations["adminListAudit"];
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
         * @description Every error code of the admin API. `x-status` is the HTTP status that carries each; those
         *     the public API also has keep its status.
         * @enum {string}
         */
        AdminErrorCode: "bad_request" | "invalid_query" | "invalid_body" | "unsupported_media_type" | "unauthenticated" | "forbidden" | "not_found" | "account_not_found" | "key_not_found" | "command_not_found" | "webhook_endpoint_not_found" | "event_not_found" | "method_not_allowed" | "account_exists" | "command_not_held" | "request_timeout" | "cursor_expired" | "headers_too_large" | "rate_limited" | "too_many_streams" | "internal" | "not_implemented";
        AdminError: {
            error: components["schemas"]["AdminErrorCode"];
            message: string;
            /** @description The body field at fault, for `invalid_body` when there is one. */
            field?: string;
            requestId?: string;
        };
        /** Format: date-time */
        Time: string;
        AccountCreate: {
            /** @description Unique; letters, digits, `.`, `_` and `-`, starting with a letter or digit. */
            name: string;
        };
        Account: {
            /** Format: uuid */
            id: string;
            name: string;
            /** @description This account's own pause; the pause of every account is `Outbound.paused`. */
            outboundPaused: boolean;
            createdAt: components["schemas"]["Time"];
        };
        AccountList: {
            accounts: components["schemas"]["AccountSummary"][];
        };
        AccountSummary: components["schemas"]["Account"] & {
            /** @description The account's lease, live or expired; null when no host ever took one. */
            host: components["schemas"]["Host"] | null;
        };
        AccountDetail: components["schemas"]["AccountSummary"] & {
            /** @description Every account's outbound sending is paused, this one's with it. */
            pausedByAll: boolean;
            policies: components["schemas"]["LinePolicies"];
        };
        /**
         * @description What an account may upload. `maxBytes` is at most 100,000,000 (about what iMessage
         *     carries). `allowedTypes` are media types (`application/pdf`) or whole families
         *     (`image/*`), lower case; an empty list allows nothing.
         */
        TransferLimits: {
            /** Format: int32 */
            maxBytes: number;
            allowedTypes: string[];
        };
        /**
         * @description An account's line policies (specs/openapi/switchboard.yaml, "Line policies"). Each is off
         *     when absent or null.
         */
        LinePolicies: {
            /** @description At most this many first messages to addresses the account has never talked to, per rolling hour and per rolling day. */
            newContacts?: {
                /** Format: int32 */
                perHour?: number | null;
                /** Format: int32 */
                perDay?: number | null;
            } | null;
            /** @description At most `perMinute` messages to one conversation in any 60 seconds. */
            pacing?: {
                /** Format: int32 */
                perMinute: number;
            } | null;
            /** @description At most `maxUnanswered` messages in a row to one conversation with no inbound message between them. */
            loopBreaker?: {
                /** Format: int32 */
                maxUnanswered: number;
            } | null;
            /** @description From `from` until `until` each day, in the time zone that applies, commands are held and go out in order when the window ends. */
            quietHours?: components["schemas"]["QuietHours"] | null;
            /** @description When true, a first message to an address the account never talked to waits for an operator to release or reject it. */
            firstContactApproval?: boolean | null;
        };
        QuietHours: {
            from: components["schemas"]["LocalTime"];
            until: components["schemas"]["LocalTime"];
            timeZone: components["schemas"]["TimeZone"];
            /** @description A conversation's own time zone, by conversationId; the others use `timeZone`. */
            conversationTimeZones?: {
                [key: string]: components["schemas"]["TimeZone"];
            };
        };
        /**
         * @description A time of day, `HH:MM` (24-hour clock).
         * @example 21:00
         */
        LocalTime: string;
        /**
         * @description An IANA time zone name (`Europe/Paris`, `America/New_York`, `UTC`); one the server does not know is 400 `invalid_body`.
         * @example Europe/Paris
         */
        TimeZone: string;
        Rejection: {
            /** @description Why, for the client (the settled command's `errorMessage`). */
            reason?: string;
        };
        PolicyUsage: {
            /** @description First contacts counted in the last rolling hour and day. */
            newContacts: {
                /** Format: int32 */
                lastHour: number;
                /** Format: int32 */
                lastDay: number;
            };
            /** @description Whether quiet hours hold new commands now, in the account's `timeZone`, and when the window opens; `quiet` false and `opensAt` null when they are off or not in force. */
            quietHours: {
                quiet: boolean;
                /** Format: date-time */
                opensAt: string | null;
            };
            /** @description The commands each hold policy holds now. */
            held: {
                /** Format: int32 */
                quietHours: number;
                /** Format: int32 */
                firstContactApproval: number;
            };
            /** @description With `conversationId`, what pacing and the loop breaker count for it. */
            conversation?: {
                /** Format: uuid */
                conversationId: string;
                /** Format: int32 */
                sendsLastMinute: number;
                /** Format: int32 */
                unanswered: number;
            };
        };
        Outbound: {
            /** @description Outbound sending is paused for every account. */
            paused: boolean;
        };
        /**
         * @description `account`: an API key for the public API; `connector`: a key for the account's connector hosts.
         * @enum {string}
         */
        KeyKind: "account" | "connector";
        KeyCreate: {
            kind: components["schemas"]["KeyKind"];
            /** @default  */
            label?: string;
        };
        Key: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            accountId: string;
            kind: components["schemas"]["KeyKind"];
            /** @description The key's first characters, to tell keys apart. */
            prefix: string;
            label: string;
            createdAt: components["schemas"]["Time"];
            /** Format: date-time */
            revokedAt: string | null;
        };
        KeyWithSecret: components["schemas"]["Key"] & {
            /** @description The key itself, shown this once. */
            secret: string;
        };
        KeyList: {
            keys: components["schemas"]["Key"][];
        };
        /** @enum {string} */
        OperatorRole: "full" | "read-only";
        OperatorKeyCreate: {
            /** @default  */
            label?: string;
            role?: components["schemas"]["OperatorRole"];
        };
        OperatorKey: {
            /** Format: uuid */
            id: string;
            role: components["schemas"]["OperatorRole"];
            prefix: string;
            label: string;
            createdAt: components["schemas"]["Time"];
            /** Format: date-time */
            revokedAt: string | null;
        };
        OperatorKeyWithSecret: components["schemas"]["OperatorKey"] & {
            secret: string;
        };
        OperatorKeyList: {
            keys: components["schemas"]["OperatorKey"][];
        };
        /** @description An account's lease and the connector host that holds (or last held) it. */
        Host: {
            /** Format: uuid */
            accountId: string;
            hostId: string;
            /** Format: int64 */
            epoch: number;
            /** Format: int32 */
            osMajorVersion: number;
            capabilities: components["schemas"]["Capability"][];
            acquiredAt: components["schemas"]["Time"];
            /** @description The last renewal (by the host, or by one of its dispatch polls). */
            renewedAt: components["schemas"]["Time"];
            expiresAt: components["schemas"]["Time"];
            /** @description The lease has not expired. */
            live: boolean;
        };
        HostList: {
            hosts: components["schemas"]["Host"][];
        };
        Overview: {
            /** Format: int32 */
            accounts: number;
            hosts: {
                /** Format: int32 */
                live: number;
                /** Format: int32 */
                expired: number;
            };
            /** @description Outbound sending is paused for every account. */
            outboundPaused: boolean;
            /** Format: int32 */
            minutes: number;
            /** @description One entry per minute of the window, oldest first (the current minute last). */
            commandsPerMinute: components["schemas"]["MinuteCounts"][];
            /** @description Commands that settled `failed` in the window, by settlement code, most first. */
            failuresByCode: {
                code: components["schemas"]["SettlementCode"];
                /** Format: int32 */
                count: number;
            }[];
            /**
             * Format: int32
             * @description Webhook endpoints failing or disabled (`GET /v1/admin/webhook-endpoints?state=...` lists them).
             */
            failingEndpoints: number;
        };
        MinuteCounts: {
            minute: components["schemas"]["Time"];
            /** Format: int32 */
            accepted: number;
            /** Format: int32 */
            succeeded: number;
            /** Format: int32 */
            failed: number;
        };
        /** @description A command as its account's clients read it, with the account it belongs to. */
        AdminCommand: components["schemas"]["Command"] & {
            /** Format: uuid */
            accountId: string;
        };
        CommandPage: {
            commands: components["schemas"]["AdminCommand"][];
            nextCursor: string | null;
        };
        CommandDetail: {
            command: components["schemas"]["AdminCommand"];
            /** @description What the service recorded of the command, oldest first. */
            timeline: components["schemas"]["TimelineEntry"][];
        };
        /**
         * @description One step of a command's life:
         *     - `accepted`: the 202 (`disposition` `queued`; a later request adopting it is answered
         *       from this record and adds no step), with `idempotencyKey` and `routingPath`;
         *     - `dispatched`: handed to a connector host (`hostId`, `epoch`), at its last dispatch;
         *     - `sent`: the platform confirmed the message (`messageExternalId`);
         *     - `settled`: `status`, and when failed `errorCode`, `errorMessage`, `errorPath`;
         *     - `delivered`, `read`: as the platform reported them;
         *     - `failed`: the message failed after it was sent (`failure`);
         *     - `edited`, `unsent`: the message was changed or taken back after it was sent.
         *     - `held`: a line policy held it (`policy`, while it still holds); `released`: the hold
         *       ended and it was queued (the stream's `command.released` says by what).
         */
        TimelineEntry: {
            /** @enum {string} */
            kind: "accepted" | "held" | "released" | "dispatched" | "sent" | "settled" | "delivered" | "read" | "failed" | "edited" | "unsent";
            /**
             * Format: date-time
             * @description When; null for a dispatch made before the service recorded dispatch times.
             */
            at: string | null;
            disposition?: components["schemas"]["Disposition"];
            idempotencyKey?: string | null;
            routingPath?: components["schemas"]["RoutingPath"];
            /** @description The host that held the epoch; null when the service no longer knows it. */
            hostId?: string | null;
            /** Format: int64 */
            epoch?: number;
            messageExternalId?: string;
            status?: components["schemas"]["CommandStatus"];
            errorCode?: components["schemas"]["SettlementCode"] | null;
            errorMessage?: components["schemas"]["ErrorMessage"];
            errorPath?: components["schemas"]["ErrorPath"];
            policy?: components["schemas"]["HoldPolicy"];
            failure?: components["schemas"]["MessageFailure"];
        };
        /** @description An endpoint as its account reads it, with the account it belongs to. */
        WebhookEndpoint: components["schemas"]["WebhookEndpoint-2"] & {
            /** Format: uuid */
            accountId: string;
            /**
             * Format: date-time
             * @description When the event at the head of its queue first failed; null when none is failing.
             */
            failingSince: string | null;
        };
        WebhookEndpointList: {
            endpoints: components["schemas"]["WebhookEndpoint"][];
        };
        WebhookEndpointState: {
            enabled: boolean;
        };
        WebhookResend: {
            /** @description A retained event of the account's log. */
            eventId: string;
        };
        /**
         * @description One attempt of the endpoint's log, with what the receiver answered: the account's own
         *     `WebhookDelivery` (whose fields it repeats, as that schema admits no others) and two more.
         */
        Delivery: {
            eventId: string;
            /**
             * Format: int32
             * @description 1 for the first attempt at this event since it became due (a replay starts again at 1); 1 for a resend.
             */
            attempt: number;
            at: components["schemas"]["Time"];
            /**
             * Format: int32
             * @description The receiver's HTTP status; null when no response arrived.
             */
            status: number | null;
            /** @description Why no response arrived: `timeout`, `address_refused` (SSRF rules), `dns`, `connection` and a detail. */
            error: string | null;
            /** Format: int32 */
            latencyMs: number;
            /** @description The first 1 KiB of the receiver's response body, as UTF-8; null when no response arrived or it had none. */
            responseBody: string | null;
            /** @description Made by an operator's resend, not by the delivery in order. */
            resend: boolean;
        };
        DeliveryPage: {
            deliveries: components["schemas"]["Delivery"][];
            nextCursor: string | null;
        };
        AuditRecord: {
            id: string;
            at: components["schemas"]["Time"];
            /**
             * Format: uuid
             * @description The operator key that made the change; null for a change the CLI made where the store is (no key is needed there).
             */
            operatorKeyId: string | null;
            /** @description The operation: `account.create`, `account.pause`, `account.resume`, `outbound.pause`, `outbound.resume`, `key.create`, `key.revoke`, `operator_key.create`, `operator_key.revoke`, `account.policies`, `account.transfer_limits`, `command.release`, `command.reject`, `webhook_endpoint.enable`, `webhook_endpoint.disable`, `webhook_endpoint.rotate_secret`, `webhook_endpoint.resend`, `webhook_endpoint.replay`, `webhook_endpoint.test`. */
            action: string;
            /**
             * Format: uuid
             * @description The account it concerned; null for changes of every account and of operator keys.
             */
            accountId: string | null;
            /** @description What it named within the account (a key's id, an endpoint's id), or null. */
            subject: string | null;
            /** @description What it changed (never a secret). */
            detail: {
                [key: string]: unknown;
            };
        };
        AuditPage: {
            records: components["schemas"]["AuditRecord"][];
            nextCursor: string | null;
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
        /** @description An answer given before any route, after which the connection closes. */
        ProtocolError: {
            /** @enum {string} */
            error: "request_timeout" | "headers_too_large" | "not_implemented";
            message: string;
            requestId?: string;
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
        BadRequestError: {
            /** @constant */
            error: "bad_request";
            message: string;
            requestId?: string;
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
        ConversationPage: {
            conversations: components["schemas"]["Conversation"][];
            nextCursor: string | null;
        };
        /**
         * @description `queued` until the connector host settles the command, then `succeeded` or `failed`.
         *     `held` only where an operator turned on a line policy that holds (quiet hours, first-contact
         *     approval): accepted, not dispatched until released (then `queued`) or rejected (then
         *     `failed`). See "Line policies".
         * @enum {string}
         */
        CommandStatus: "queued" | "succeeded" | "failed" | "held";
        /** @enum {string} */
        CommandType: "message.send" | "reaction.tapback" | "reaction.apply" | "name_photo.share" | "group.create" | "group.update" | "group.leave";
        /**
         * Format: uuid
         * @description A UUIDv7.
         */
        CommandId: string;
        /** @enum {string} */
        RoutingPath: "agent-turn" | "admin";
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
        /**
         * @description The line policy that holds a command (see "Line policies").
         * @enum {string}
         */
        HoldPolicy: "quietHours" | "firstContactApproval";
        StatusChange: {
            status: components["schemas"]["CommandStatus"];
            /** Format: date-time */
            at: string;
        };
        AttachmentRef: {
            /** @description Downloads from `GET /v1/attachments/{attachmentId}` while it is kept. */
            attachmentId: string;
            fileName: string;
            mimeType: string;
            /** Format: int32 */
            byteSize: number;
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
        /**
         * @description `queued`: new work was created. `adopted`: the Idempotency-Key was already known; no new work.
         * @enum {string}
         */
        Disposition: "queued" | "adopted";
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
        CursorExpiredError: {
            /** @constant */
            error: "cursor_expired";
            message: string;
            /** @description The oldest retained event id; resume with `after` = one less than it. */
            oldestId: string;
            requestId?: string;
        };
        /**
         * @description The stream event types delivered (see specs/asyncapi/stream.yaml); null or absent means
         *     every type. `webhook.test` events reach the endpoint they name whatever the filter.
         */
        WebhookEventTypes: string[] | null;
        "WebhookEndpoint-2": {
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
        WebhookEndpointWithSecret: components["schemas"]["WebhookEndpoint-2"] & {
            /** @description The Standard Webhooks signing secret. Shown once. */
            secret: string;
        };
        WebhookReplay: {
            /** @description A stream cursor (an event id, `0` for the start of the retained log). */
            after: string;
        };
        WebhookTestAccepted: {
            /** @description The `webhook.test` event's id (its `webhook-id`). */
            eventId: string;
        };
    };
    responses: {
        /** @description No credential, or not a live operator key (`unauthenticated`). */
        Unauthenticated: {
            headers: {
                /** @description `Bearer` */
                "WWW-Authenticate"?: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description A read-only operator key asked for a change (`forbidden`). */
        Forbidden: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description No such account (`account_not_found`). */
        AccountNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description No such key (`key_not_found`). */
        KeyNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description No such account, or no such endpoint of it (`account_not_found`, `webhook_endpoint_not_found`). */
        EndpointNotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description The body is not JSON, or not of the operation's schema (`invalid_body`, with `field` when one field is at fault). */
        InvalidBody: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description A query parameter is not of its schema, or a cursor is not one this API gave (`invalid_query`). */
        QueryInvalid: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description A body that is not `application/json` (`unsupported_media_type`). */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description Too many failed authentications from this address (`rate_limited`); retry after `Retry-After` seconds. */
        RateLimited: {
            headers: {
                /** @description Seconds to wait. */
                "Retry-After"?: number;
                "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                RateLimit: components["headers"]["RateLimit"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
            };
        };
        /** @description A persistence failure (`internal`); a change may or may not have been made, so read it back before retrying. */
        Internal: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["AdminError"];
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
        /** @description The request is malformed: not well-formed HTTP/1.1, or a path that is not valid percent-encoding. */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["BadRequestError"];
            };
        };
    };
    parameters: {
        /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
        AccountId: string;
        /** @description A command of any account; an id of no command is 404 `command_not_found`. */
        CommandId: string;
        /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
        EndpointId: string;
        KeyId: string;
        Limit: number;
        /** @description The `nextCursor` of the previous page. */
        Cursor: string;
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
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    adminOverview: {
        parameters: {
            query?: {
                minutes?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The figures. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Overview"];
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
    adminListAccounts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The accounts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountList"];
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
    adminCreateAccount: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["AccountCreate"];
            };
        };
        responses: {
            /** @description The account. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            /** @description An account with this name exists (`account_exists`). */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminPauseAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account, paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminResumeAccount: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account, resumed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Account"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The policies. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinePolicies"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminSetPolicies: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LinePolicies"];
            };
        };
        responses: {
            /** @description The policies as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinePolicies"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminPauseAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Every account is paused. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminResumeAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pause of every account is over. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Outbound"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListKeys: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, oldest first; never their secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminCreateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["KeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["KeyWithSecret"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminRevokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Key"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListOperatorKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The keys, oldest first; never their secrets. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorKeyList"];
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
    adminCreateOperatorKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["OperatorKeyCreate"];
            };
        };
        responses: {
            /** @description The key, with its secret. */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorKeyWithSecret"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, never its secret. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorKey"];
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
    adminRevokeOperatorKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                keyId: components["parameters"]["KeyId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The key, revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorKey"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["KeyNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListHosts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The leases, one per account that ever had one. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HostList"];
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
    adminListConversations: {
        parameters: {
            query?: {
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of conversations. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ConversationPage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetTransferLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The limits. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferLimits"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminSetTransferLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TransferLimits"];
            };
        };
        responses: {
            /** @description The limits as stored. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransferLimits"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetPolicyUsage: {
        parameters: {
            query?: {
                conversationId?: string;
            };
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The usage. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PolicyUsage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListCommands: {
        parameters: {
            query?: {
                accountId?: string;
                status?: components["schemas"]["CommandStatus"];
                /** @description Failed commands with this settlement code. */
                errorCode?: components["schemas"]["SettlementCode"];
                type?: components["schemas"]["CommandType"];
                /** @description Commands accepted at or after this time. */
                createdAfter?: string;
                /** @description Commands accepted before this time. */
                createdBefore?: string;
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of commands. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandPage"];
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
    adminGetCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                commandId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The command and what happened to it. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            /** @description No command with this id (`command_not_found`), or retention dropped it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminReleaseCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A command of any account; an id of no command is 404 `command_not_found`. */
                commandId: components["parameters"]["CommandId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The command as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandDetail"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            /** @description No command with this id (`command_not_found`), or retention dropped it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The command is not held (`command_not_held`); it may have been released or rejected already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminRejectCommand: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description A command of any account; an id of no command is 404 `command_not_found`. */
                commandId: components["parameters"]["CommandId"];
            };
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": components["schemas"]["Rejection"];
            };
        };
        responses: {
            /** @description The command as it is now. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CommandDetail"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            /** @description No command with this id (`command_not_found`), or retention dropped it. */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            /** @description The command is not held (`command_not_held`); it may have been released or rejected already. */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetEvents: {
        parameters: {
            query?: {
                after?: string;
                /** @description JSON form only. */
                limit?: number;
            };
            header?: {
                "Last-Event-ID"?: string;
            };
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of events (JSON) or the live stream (SSE). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EventPage"];
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description The cursor is not in the account's log; restart from `oldestId`. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CursorExpiredError"];
                };
            };
            /** @description Too many failed authentications from this address (`rate_limited`, with `Retry-After`), or one open stream too many for this operator key (`too_many_streams`, no `Retry-After`; close a stream first). */
            429: {
                headers: {
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Policy": components["headers"]["RateLimitPolicy"];
                    RateLimit: components["headers"]["RateLimit"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListAllWebhookEndpoints: {
        parameters: {
            query?: {
                /** @description `failing`: enabled and retrying an event; `disabled`: by the service or an operator; `all`. */
                state?: "all" | "failing" | "disabled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
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
    adminListWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoints, oldest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["AccountNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminGetWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminUpdateWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEndpointState"];
            };
        };
        responses: {
            /** @description The endpoint. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminRotateWebhookSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The endpoint, with its new secret (shown once). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpointWithSecret"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: string;
            };
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of attempts. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeliveryPage"];
                };
            };
            400: components["responses"]["QueryInvalid"];
            401: components["responses"]["Unauthenticated"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminResendWebhookEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookResend"];
            };
        };
        responses: {
            /** @description The attempt, whatever the receiver answered. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Delivery"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            /** @description No such endpoint (`webhook_endpoint_not_found`), or no such event in the account's retained log (`event_not_found`). */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AdminError"];
                };
            };
            408: components["responses"]["RequestTimeout"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminReplayWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
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
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            400: components["responses"]["InvalidBody"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            /** @description `after` is not in the account's log. */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CursorExpiredError"];
                };
            };
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminTestWebhookEndpoint: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The account's id. An id of no account, or not a UUID, is 404 `account_not_found`. */
                accountId: components["parameters"]["AccountId"];
                /** @description An endpoint of the account named in the path; any other is 404 `webhook_endpoint_not_found`. */
                endpointId: components["parameters"]["EndpointId"];
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The event is committed; its delivery follows. */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestAccepted"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthenticated"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["EndpointNotFound"];
            408: components["responses"]["RequestTimeout"];
            429: components["responses"]["RateLimited"];
            431: components["responses"]["HeadersTooLarge"];
            500: components["responses"]["Internal"];
            501: components["responses"]["NotImplemented"];
        };
    };
    adminListAudit: {
        parameters: {
            query?: {
                limit?: components["parameters"]["Limit"];
                /** @description The `nextCursor` of the previous page. */
                cursor?: components["parameters"]["Cursor"];
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of audit records. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AuditPage"];
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
}
