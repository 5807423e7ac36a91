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
         * @description Reserves the cost, calls the provider, streams the audio as it arrives, then commits the charge. Failures before the first audio byte are not charged. A client that disconnects mid-stream is charged (the provider already did the work); an upstream that fails mid-stream is not charged and the stream ends without its terminating chunk, so the client sees a truncated response. Bodies over 65536 bytes are refused. A provider with no API key configured answers 503 provider_unavailable.
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
        get: operations["getStatus"];
        put?: never;
        post?: never;
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
        /** @description Every error response. `details` is for people; `error` is the stable machine code. */
        Error: {
            /** @enum {string} */
            error: "invalid_body" | "invalid_model" | "invalid_query" | "unauthorized" | "insufficient_credit" | "not_found" | "method_not_allowed" | "internal_error" | "upstream_error" | "provider_unavailable";
            details?: string;
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
            /** @description Held by requests in flight. Spendable = balance − reserved. */
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
            capabilities: {
                supportedFormats: ("mp3" | "pcm")[];
                unwiredCapabilities: string[];
                quirks: string[];
                lastSmokeTest: string | null;
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
        Voice: {
            id: string;
            provider: string;
            name: string;
            language: string;
            labels: {
                [key: string]: string;
            };
            preview_url?: string;
            model_compatibility: string[];
        };
        ProviderStatus: {
            id: string;
            /** @enum {string} */
            state: "available" | "unavailable";
            reason?: string;
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
            header?: never;
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
                    /** @description 16-bit little-endian, 24 kHz, mono. */
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
            /** @description insufficient_credit */
            402: {
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
            /** @description upstream_error */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description provider_unavailable */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description upstream_error: no response within the per-attempt deadline */
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
            header?: never;
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
        };
    };
    listCreditActivity: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
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
            /** @description invalid_query */
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
            /** @description Provider availability, computed without upstream calls. */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Status"];
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
