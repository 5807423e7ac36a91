// Generated from openapi.json by scripts/write-openapi.mjs. Do not edit.
export interface paths {
    "/v1/audio/speech": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Synthesize speech (streamed)
         * @description Reserves the cost, calls the provider, streams the audio as it arrives, then commits the charge. Failures before the first audio byte are not charged. A client that disconnects mid-stream is charged (the provider already did the work); an upstream that fails mid-stream is not charged and the stream ends without its terminating chunk, so the client sees a truncated response. Bodies over 65536 bytes are refused. A provider with no API key configured answers 503 provider_unavailable. Upstream failures answer 502 (504 for the deadline) `upstream_error` with `code` naming the category; the raw upstream answer is never passed on. A provider that refuses a value the client chose (unknown voice, bad option, input too long for the model) answers 400 invalid_body naming the field; it is not retried or charged. Retryable failures (5xx, 408, 409, 429, network errors, the deadline) are retried before the first audio byte, waiting the upstream Retry-After when it fits within one attempt deadline and giving up at once when it does not. Each provider has a circuit breaker per process: after consecutive upstream failures it opens and speech to that provider answers 503 provider_unavailable at once, before anything is reserved, until a cooldown has passed; then one probe request goes upstream (others still get 503) and its first audio byte closes the breaker, its failure reopens it.
         */
        post: operations["createSpeech"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Wallet balance */
        get: operations["getCredits"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/credits/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Wallet activity (ledger rows) */
        get: operations["listCreditActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/providers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Providers, models and pricing */
        get: operations["listProviders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/voices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Voices across providers */
        get: operations["listVoices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Provider availability
         * @description Computed without upstream calls. `unavailable` with `missing_api_key` or `circuit_open`, `degraded` with `circuit_half_open`. Circuit-breaker states are per process: behind a load balancer each data-plane replica answers with its own view.
         */
        get: operations["getStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/device-code": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start a device-code login (RFC 8628)
         * @description No auth, no body. Codes expire after 600 s; only hashes of them are stored. At most 60 per client address per hour (429 rate_limited with Retry-After in seconds); the address is the connecting socket's, or taken from X-Forwarded-For only behind a configured trusted proxy.
         */
        post: operations["createDeviceCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Poll for the session token of a device code
         * @description Poll at `interval` seconds. A device code yields one token: polling again after success answers 410 expired_token. Polling faster than the interval answers 400 slow_down (add 5 s). A denied request answers 403 access_denied.
         */
        post: operations["pollDeviceCode"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Who the token belongs to */
        get: operations["whoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Revoke the session token
         * @description Revokes the bearer session. Revoked, expired or unknown tokens and pk_ keys answer {"revoked": false}.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List your sessions
         * @description Beyond the spec. The user's active sessions (console and CLI), newest first; never their tokens.
         */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke one of your sessions
         * @description Beyond the spec. Revokes one of the caller's own sessions (the calling one too, if named). Another user's, an ended or an unknown session: 404.
         */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/auth/logout-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Log out everywhere
         * @description Beyond the spec. Log out everywhere: revokes every session of the user, console and CLI, the calling one included.
         */
        post: operations["logoutAll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List API keys
         * @description Active keys of the selected account; every member of an organization sees all of them. The secret never appears.
         */
        get: operations["listKeys"];
        put?: never;
        /**
         * Create an API key
         * @description Any member may mint; the creator is recorded. A pk_ key cannot mint (403 scope_required).
         */
        post: operations["createKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key
         * @description Soft delete, by the member who minted the key or an owner of the key's account; another member of that account gets 403 forbidden; anyone else, or an unknown id, 404. The data plane stops accepting it at once in the same process and within one second on every replica.
         */
        delete: operations["revokeKey"];
        options?: never;
        head?: never;
        /**
         * Change a key's name or limits
         * @description Beyond the spec: changes a key after creation (name and limits). Allowed for the member who minted it and for owners of its account; anyone else, or an unknown or revoked id, gets 404. Only the fields sent change; null returns a limit to the deployment default or removes a cap. A new cap counts what the key already spent in the current window. Takes effect at once on a data plane in the same process and within AUTH_CACHE_TTL_MS (500 ms) on every replica.
         */
        patch: operations["updateKey"];
        trace?: never;
    };
    "/v1/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Usage report */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/methods": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Saved cards
         * @description The saved cards of the selected account (an organization, or the personal account), the 5 most recent first. The list is empty until someone adds a card in the console (Billing page); no payment-processor customer exists before that. 503 billing_not_configured when this deployment has no Stripe key.
         */
        get: operations["listBillingMethods"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/topup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Top up the wallet from a saved card
         * @description Charges a saved card off-session (a Stripe PaymentIntent confirmed with off_session=true). A CLI session token or the console's session token may be sent as the bearer; a pk_ key is refused (403 scope_required). The wallet is credited afterwards, by the payment processor's webhook (`POST /v1/billing/webhook`). Retrying with the same `idempotency_key` never charges twice: it answers as the first attempt did (the same key with another amount or card: 400 idempotency_key_reused; while the first attempt is still running: 409 topup_in_progress). A declined card: 402 card_declined with `decline_code`. A card whose bank wants the cardholder to confirm (3-D Secure): 402 stripe_3ds_required with `url`, a console page that completes the payment on-session; after it the card normally works off-session. 503 billing_not_configured when this deployment has no Stripe key.
         */
        post: operations["createTopUp"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/billing/webhook": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stripe webhook endpoint (for Stripe, not for clients)
         * @description Takes Stripe events signed with STRIPE_WEBHOOK_SECRET (the Stripe-Signature header, checked on the raw body by the official library; a missing or bad signature is 400 invalid_signature and changes nothing). payment_intent.succeeded credits the wallet of the account whose Stripe customer paid, once per PaymentIntent however often or in whatever order it arrives. refund.created / refund.updated debit a refund once per refund (refund.failed gives it back); charge.dispute.closed with status lost debits the disputed amount. A debit never takes money reserved by requests in flight: what cannot be taken is recorded on the ledger row (metadata.shortfallMicros) and logged for the operator. Other event types answer 200 with ignored=true. A 500 makes Stripe retry.
         */
        post: operations["receiveStripeWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This OpenAPI document */
        get: operations["getOpenApiDocument"];
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
        /** @description Every error response. `details` is for people; `error` (and `code` when present) are stable machine codes. */
        Error: {
            /** @enum {string} */
            error: "invalid_body" | "invalid_model" | "authorization_pending" | "slow_down" | "unauthorized" | "insufficient_credit" | "spend_limit_exceeded" | "card_declined" | "stripe_3ds_required" | "invalid_payment_method" | "idempotency_key_reused" | "invalid_signature" | "topup_in_progress" | "payment_processor_error" | "billing_not_configured" | "scope_required" | "organization_required" | "forbidden" | "access_denied" | "not_found" | "invalid_device_code" | "expired_token" | "rate_limited" | "concurrency_limited" | "method_not_allowed" | "internal_error" | "upstream_error" | "provider_unavailable" | "auth_disabled";
            /** @description A finer machine code where one `error` covers several cases: on 502/504 upstream_error one of the upstream failure codes listed on POST /v1/audio/speech; on 429 `rate_limit_exceeded` (rate_limited) or `concurrency_limit_exceeded` (concurrency_limited); on 402 spend_limit_exceeded `daily_spend_cap_exceeded` or `monthly_spend_cap_exceeded`. */
            code?: string;
            details?: string;
            /** @description stripe_3ds_required only: the console page where the user confirms the payment with their bank. */
            url?: string;
            /** @description card_declined only: the card issuer's reason as Stripe names it (generic_decline, insufficient_funds, …). */
            decline_code?: string;
        };
        /** @description Fields OpenAI accepts that the router does not use (e.g. `stream_format`) are ignored and named in the `X-Router-Warnings` response header. Bodies over 65536 bytes are refused with 400 invalid_body before they are read. */
        SpeechRequest: {
            /** @description `<provider>/<model_id>`: the part before the first slash picks the provider; the rest is passed to it unchanged. */
            model: string;
            /** @description Text to speak. Charged per Unicode code point at the model's price. */
            input: string;
            /** @description Provider-local voice id (or OpenAI's `{id}` object for custom voices). */
            voice: string | {
                id: string;
            };
            /**
             * @description `mp3` (audio/mpeg) or `pcm` (audio/l16: 16-bit little-endian, 24 kHz, mono, no header).
             * @default mp3
             * @enum {string}
             */
            response_format: "mp3" | "pcm";
            /** @description OpenAI-style speed; mapped where the provider supports it, else ignored with a warning. */
            speed?: number;
            /** @description OpenAI-style instructions; mapped where supported, else ignored with a warning. */
            instructions?: string;
            /** @description Passed to the provider; accepted keys depend on the provider. Unknown keys are ignored with a warning. */
            provider_options?: {
                [key: string]: unknown;
            };
        } & {
            [key: string]: unknown;
        };
        Credits: {
            /** @description All money in the wallet, including what is reserved. */
            balanceMicros: number;
            /** @description Held by requests in flight, and by allowances a data plane holds for this account while its traffic is hot (money set aside for requests about to be served; returned about a second after the traffic stops). Spendable = balance − reserved. */
            reservedMicros: number;
        };
        Activity: {
            rows: components["schemas"]["LedgerRow"][];
        };
        Providers: {
            providers: components["schemas"]["Provider"][];
        };
        Voices: {
            voices: components["schemas"]["Voice"][];
        };
        Status: {
            providers: components["schemas"]["ProviderStatus"][];
        };
        LedgerRow: {
            id: string;
            /** @enum {string} */
            kind: "top-up" | "reserve" | "commit" | "refund" | "void";
            /** @description Change to the balance. Reserve and void rows are 0 (they move only the reserved amount, in metadata.amountMicros). */
            microsDelta: number;
            microsBalanceAfter: number;
            reservationId: string | null;
            /** @description admin, request, worker, reaper, … */
            source: string;
            /** @description Details of the row. A request's reserve row: amountMicros, provider, model, characters; its commit row: provider, model, characters and what the settlement adds (deliveredBytes, …); its void row: amountMicros, errorCode, provider, model. A reserve row with allowance: true is money a data plane set aside for a hot account (amountMicros); the requests it pays for have no reserve row of their own, and their commit or void row names it (allowanceId) and the API key (apiKeyId). */
            metadata: {
                [key: string]: unknown;
            };
            /** @description ISO 8601 */
            createdAt: string;
        };
        Provider: {
            id: string;
            name: string;
            website: string;
            models: components["schemas"]["Model"][];
            provider_options: components["schemas"]["__shared"][];
            /** @description What response_format mp3 asks this provider for, e.g. mp3_44100_128. */
            mp3_quality: string;
            capabilities: {
                supportedFormats: ("mp3" | "pcm")[];
                unwiredCapabilities: string[];
                quirks: string[];
                /** @description ISO 8601 time of the last successful smoke synthesis against the real provider, or "never" (scheduled with SMOKE_TEST_INTERVAL_MS, or `npm run admin -- smoke-test`). */
                lastSmokeTest: string;
            };
        };
        Model: {
            id: string;
            name: string;
            response_formats: ("mp3" | "pcm")[];
            pricing: components["schemas"]["Pricing"];
            /** @description Longer input is refused with 400 invalid_body before anything is charged. */
            maxInputCharacters: number;
        };
        /** @description cost = ceil(code points of input × microsPerUnit), in integer micro-dollars. */
        Pricing: {
            /** @constant */
            unit: "character";
            microsPerUnit: number;
        };
        /** @description Listed live from each configured provider's voice API (paged to the end, refreshed in the background); fixed lists for providers without one. */
        Voice: {
            id: string;
            provider: string;
            name: string;
            /** @description Canonical BCP 47 tag (`en-US`, `de`); `und` when the provider gives none. */
            language: string;
            /** @description Free-form string labels; `gender` is `female`, `male` or `neutral` across providers; `owner: account` marks the account's own voices. */
            labels: {
                [key: string]: string;
            };
            /** @description The provider's preview audio, where it has one (absent otherwise). */
            preview_url?: string;
            model_compatibility: string[];
        };
        /** @description Circuit-breaker states are per process: each data-plane replica keeps its own breakers and reports its own view. */
        ProviderStatus: {
            id: string;
            /** @enum {string} */
            state: "available" | "degraded" | "unavailable";
            /**
             * @description `missing_api_key` (unavailable: no key configured), `circuit_open` (unavailable: the circuit breaker opened after consecutive upstream failures), `circuit_half_open` (degraded: the cooldown is over and one probe request decides whether it closes).
             * @enum {string}
             */
            reason?: "missing_api_key" | "circuit_open" | "circuit_half_open";
        };
        DeviceCode: {
            device_code: string;
            /** @description Eight unambiguous letters shown as ABCD-EFGH. */
            user_code: string;
            verification_uri: string;
            verification_uri_complete: string;
            /** @constant */
            expires_in: 600;
            /** @constant */
            interval: 5;
        };
        PollRequest: {
            device_code: string;
        };
        SessionToken: {
            /** @description `vr_session_…`; send as `Authorization: Bearer`. */
            session_token: string;
            /** @description ISO 8601, 90 days after approval. */
            expires_at: string;
            user_id: string;
        };
        Whoami: {
            /** @description For a pk_ key: the id of the account that owns the key. */
            user_id: string;
            /** @enum {string} */
            auth: "api_key" | "session";
            expires_at?: string;
            email?: string;
            /** @description Sessions only: the accounts this user can act for (ids for X-Organization-Id). */
            accounts?: {
                accountId: string;
                /** @enum {string} */
                kind: "personal" | "organization";
                name: string;
                /** @enum {string} */
                role: "owner" | "member";
            }[];
        };
        Logout: {
            revoked: boolean;
        };
        ApiKey: {
            id: string;
            name: string;
            /** @description Last four characters of the secret, to tell keys apart. */
            keySuffix: string;
            /** @description Most streams this key may have open at once: its own limit, or the deployment default (DEFAULT_KEY_MAX_CONCURRENCY, 8) when it has none. */
            maxConcurrency: number;
            /** @description Most requests per minute: its own limit, or the deployment default (DEFAULT_KEY_RATE_LIMIT_PER_MINUTE, 600) when it has none. */
            rateLimitPerMinute: number;
            dailySpendCapMicros: number | null;
            monthlySpendCapMicros: number | null;
            createdAt: string;
            /** @description Email of the member who minted it; only they may revoke it. */
            createdBy: string | null;
        };
        ApiKeyList: {
            keys: components["schemas"]["ApiKey"][];
        };
        /** @description maxConcurrency: speech streams open at once (429 concurrency_limited beyond it). rateLimitPerMinute: requests per 60-second window (429 rate_limited beyond it). Without them the deployment defaults apply (DEFAULT_KEY_MAX_CONCURRENCY, DEFAULT_KEY_RATE_LIMIT_PER_MINUTE). dailySpendCapMicros / monthlySpendCapMicros: committed plus reserved spend of this key in the current UTC day / UTC month (402 spend_limit_exceeded beyond it); without them there is no cap. */
        CreateApiKeyRequest: {
            name: string;
            maxConcurrency?: number;
            rateLimitPerMinute?: number;
            dailySpendCapMicros?: number;
            monthlySpendCapMicros?: number;
        };
        CreatedApiKey: {
            id: string;
            name: string;
            /** @description Last four characters of the secret, to tell keys apart. */
            keySuffix: string;
            /** @description Most streams this key may have open at once: its own limit, or the deployment default (DEFAULT_KEY_MAX_CONCURRENCY, 8) when it has none. */
            maxConcurrency: number;
            /** @description Most requests per minute: its own limit, or the deployment default (DEFAULT_KEY_RATE_LIMIT_PER_MINUTE, 600) when it has none. */
            rateLimitPerMinute: number;
            dailySpendCapMicros: number | null;
            monthlySpendCapMicros: number | null;
            createdAt: string;
            /** @description Email of the member who minted it; only they may revoke it. */
            createdBy: string | null;
            /** @description The `pk_` secret. Shown once; only a hash is stored. */
            keyValue: string;
        };
        DeletedApiKey: {
            /** @constant */
            deleted: true;
        };
        /** @description Aggregates the newest `limit` commit and void rows of the last `days` days: a commit is a request, a void an error (with the code that caused it). */
        Usage: {
            totals: {
                requests: number;
                costMicros: number;
                errorCount: number;
            };
            byProvider: {
                provider: string;
                requests: number;
                costMicros: number;
            }[];
            byErrorCode: {
                code: string;
                count: number;
            }[];
            /** @description Extension: spend per UTC day and provider, oldest first (for charts). */
            byDay: {
                day: string;
                provider: string;
                costMicros: number;
                requests: number;
            }[];
            recent: {
                id: string;
                createdAt: string;
                /** @enum {string} */
                status: "committed" | "voided";
                costMicros: number;
            }[];
        };
        Session: {
            /** @description The session id (not its token, which is never shown again). */
            id: string;
            /**
             * @description `console`: a browser cookie (7 days); `cli`: a `vr login` token (90 days).
             * @enum {string}
             */
            kind: "console" | "cli";
            /** @description ISO 8601. */
            created_at: string;
            /** @description ISO 8601. */
            expires_at: string;
            /** @description True for the session that made this request. */
            current: boolean;
        };
        SessionList: {
            sessions: components["schemas"]["Session"][];
        };
        RevokedSession: {
            /** @constant */
            revoked: true;
        };
        LogoutAll: {
            /** @description Sessions ended, the calling one included. */
            revoked_count: number;
        };
        /** @description Only the fields present change; null sets a limit back to the deployment default, or removes a cap. maxConcurrency: speech streams open at once (429 concurrency_limited beyond it). rateLimitPerMinute: requests per 60-second window (429 rate_limited beyond it). Without them the deployment defaults apply (DEFAULT_KEY_MAX_CONCURRENCY, DEFAULT_KEY_RATE_LIMIT_PER_MINUTE). dailySpendCapMicros / monthlySpendCapMicros: committed plus reserved spend of this key in the current UTC day / UTC month (402 spend_limit_exceeded beyond it); without them there is no cap. */
        UpdateApiKeyRequest: {
            name?: string;
            maxConcurrency?: number | null;
            rateLimitPerMinute?: number | null;
            dailySpendCapMicros?: number | null;
            monthlySpendCapMicros?: number | null;
        };
        BillingMethod: {
            /** @description The payment method id (`pm_…`), for `payment_method_id`. */
            id: string;
            /** @description visa, mastercard, amex, … */
            brand: string;
            last4: string;
            expMonth: number;
            expYear: number;
        };
        BillingMethods: {
            methods: components["schemas"]["BillingMethod"][];
        };
        TopUpRequest: {
            /** @description USD cents, 1000 ($10) to 100000 ($1,000). */
            amount_cents: number;
            /** @description A saved card of the account (`GET /v1/billing/methods`). */
            payment_method_id: string;
            /** @description One per top-up attempt (a UUID, say); a retry with the same key never charges twice and answers as the first attempt did. */
            idempotency_key: string;
        };
        /** @description The card was charged. The wallet is credited when the payment processor's webhook confirms the payment, usually within seconds. */
        TopUpResponse: {
            /** @constant */
            ok: true;
            /** @description Stripe's PaymentIntent (`pi_…`). */
            payment_intent_id: string;
            amount_cents: number;
        };
        WebhookAck: {
            /** @constant */
            received: true;
            /** @description True for event types the router does not act on. */
            ignored: boolean;
        };
        __shared: {
            $defs: {
                /** @description A provider_options key this provider accepts. Any other key, or a value outside these bounds, is refused with 400 invalid_body naming the key. */
                ProviderOption: {
                    name: string;
                    /** @description JSON type: number, integer, boolean, string, array<string>... */
                    type: string;
                    description?: string;
                    minimum?: number;
                    maximum?: number;
                    enum?: (string | number)[];
                    maxLength?: number;
                    maxItems?: number;
                };
            };
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    createSpeech: {
        parameters: {
            query?: never;
            header?: {
                /** @description W3C Trace Context. A valid one is continued on the provider call (same trace id, the router's own parent id) and its trace id is logged; an invalid one is ignored. */
                traceparent?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["SpeechRequest"];
            };
        };
        responses: {
            /** @description Audio, chunked. */
            200: {
                headers: {
                    /** @description The provider that served the request. */
                    "X-Router-Provider"?: string;
                    /** @description What this request costs, in micro-dollars. */
                    "X-Router-Cost-Micros"?: number;
                    /** @description Semicolon-separated notes on ignored or approximated options; absent when none. */
                    "X-Router-Warnings"?: string;
                    /** @description Also the reservation id in the ledger. */
                    "X-Request-Id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "audio/mpeg": string;
                    "audio/l16": string;
                };
            };
            /** @description invalid_body, invalid_model */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description insufficient_credit, spend_limit_exceeded */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. concurrency_limited (`code`: concurrency_limit_exceeded): the key already has maxConcurrency speech streams open across every replica; a slot frees the moment a stream ends. (For a key whose limits are both 64 or more, each replica may hold up to 1/32 of its slots, at most 16, as spares for up to a second after its last request, so another replica can refuse that much early; see the README, "Limits".) A client may treat either as the same condition. */
            429: {
                headers: {
                    /** @description Rate limit: whole seconds until the window resets (hard). Concurrency limit: 1 (a soft hint). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description upstream_error: the provider failed before any audio. `code` is one of: `upstream_server_error` (the provider answered 5xx (or 408/409) on every attempt); `upstream_rate_limited` (the provider answered 429, or asked to wait (Retry-After) longer than one attempt may take); `upstream_auth_failed` (the provider refused this deployment's credentials (401/403)); `upstream_quota_exceeded` (this deployment's account with the provider is out of credit or quota); `upstream_rejected_request` (the provider refused the request the router built for a reason not caused by the client (e.g. a misconfigured base URL)); `upstream_bad_response` (the provider answered success without audio (a text body, or nothing)); `upstream_network_error` (the connection to the provider failed or dropped before any audio); `upstream_timeout` (no audio within the per-attempt deadline (HTTP 504)). */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_unavailable: the provider has no API key on this deployment, its circuit breaker is open or half-open (then nothing was reserved or charged), the local synthesis queue is full, or this replica is shutting down. */
            503: {
                headers: {
                    /** @description Present when the circuit breaker refused the request: `open`, or `half_open` while one probe request is in flight. */
                    "X-Router-Breaker-State"?: "open" | "half_open";
                    /** @description With `open`: whole seconds (rounded up) until the breaker lets a probe through; with a full local queue: when to retry. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description upstream_error with `code` upstream_timeout: no audio within the per-attempt deadline (after the allowed attempts). */
            504: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCredits: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The wallet. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Credits"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. */
            429: {
                headers: {
                    /** @description Whole seconds until the rate window resets (a hard value: earlier retries are refused). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCreditActivity: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Ledger rows, newest first. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Activity"];
                };
            };
            /** @description invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. */
            429: {
                headers: {
                    /** @description Whole seconds until the rate window resets (a hard value: earlier retries are refused). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listProviders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Providers with models, formats and pricing. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Providers"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. */
            429: {
                headers: {
                    /** @description Whole seconds until the rate window resets (a hard value: earlier retries are refused). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listVoices: {
        parameters: {
            query?: {
                /** @description Comma-separated provider ids. */
                provider?: string;
                /** @description ISO prefix, case-insensitive (`en` matches `en-US`). */
                language?: string;
                /** @description Exact gender label, case-insensitive. */
                gender?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Voices across providers. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Voices"];
                };
            };
            /** @description invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. */
            429: {
                headers: {
                    /** @description Whole seconds until the rate window resets (a hard value: earlier retries are refused). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Provider availability. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description rate_limited (`code`: rate_limit_exceeded): the key made more than its rateLimitPerMinute requests in the current 60-second window, which starts at the first request after the previous window ended. Every data-plane request made with a pk_ key counts, refused ones included; session tokens are not counted here. */
            429: {
                headers: {
                    /** @description Whole seconds until the rate window resets (a hard value: earlier retries are refused). */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createDeviceCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Show user_code and verification_uri to the user; poll with device_code. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeviceCode"];
                };
            };
            /** @description rate_limited */
            429: {
                headers: {
                    /** @description Seconds until the window resets. */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description auth_disabled */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pollDeviceCode: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["PollRequest"];
            };
        };
        responses: {
            /** @description Approved. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionToken"];
                };
            };
            /** @description invalid_body, authorization_pending, slow_down */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description access_denied */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description invalid_device_code */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description expired_token */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description auth_disabled */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    whoami: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Who the token belongs to. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Whoami"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Whether a session was revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Logout"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sessions. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SessionList"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RevokedSession"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logoutAll: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many sessions ended. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LogoutAll"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listKeys: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Keys. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKeyList"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createKey: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["CreateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The key, with its secret shown once. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CreatedApiKey"];
                };
            };
            /** @description invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Revoked. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DeletedApiKey"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["UpdateApiKeyRequest"];
            };
        };
        responses: {
            /** @description The key as listed. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ApiKey"];
                };
            };
            /** @description invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description not_found */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getUsage: {
        parameters: {
            query?: {
                days?: number;
                limit?: number;
            };
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Usage of the selected account. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            /** @description invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listBillingMethods: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Saved cards. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BillingMethods"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payment_processor_error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing_not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createTopUp: {
        parameters: {
            query?: never;
            header?: {
                /** @description Session requests only: the organization to act for, or `personal`. Needed when the user belongs to more than one organization (else 403 organization_required); with exactly one organization it is the default, with none the personal account is. */
                "X-Organization-Id"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["TopUpRequest"];
            };
        };
        responses: {
            /** @description Charged; the wallet is credited when the webhook arrives. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TopUpResponse"];
                };
            };
            /** @description invalid_body, invalid_payment_method, idempotency_key_reused */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description unauthorized */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description card_declined, stripe_3ds_required */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description scope_required, organization_required, forbidden */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description topup_in_progress */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description payment_processor_error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing_not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveStripeWebhook: {
        parameters: {
            query?: never;
            header: {
                "Stripe-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description Accepted (acted on, or ignored). */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookAck"];
                };
            };
            /** @description invalid_signature, invalid_body */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description internal_error */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description billing_not_configured */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description This document. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
