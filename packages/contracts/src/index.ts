// @voice-router/contracts: request/response schemas shared by the servers, the CLI and the OpenAPI document.
export {
  ERROR_STATUS, UPSTREAM_TIMEOUT_STATUS, UPSTREAM_FAILURE_CODES, LIMIT_CODES, ErrorBodySchema, errorBody, methodAnswer,
  type ErrorCode, type ErrorBody, type UpstreamFailureCode,
} from './errors.js';
export {
  SpeechRequestSchema, AudioFormatSchema, MAX_SPEECH_BODY_BYTES, SPEECH_KNOWN_FIELDS, SPEECH_HEADERS,
  parseModel, countCodePoints, type SpeechRequest, type ParsedModel,
} from './speech.js';
export { checkSpeechRequest } from './speech-check.js';
export {
  CreditsResponseSchema, ActivityQuerySchema, ActivityResponseSchema, ActivityRowSchema, LedgerKindSchema,
  type CreditsResponse, type ActivityRow,
} from './credits.js';
export {
  ProvidersResponseSchema, ProviderSchema, ModelSchema, PricingSchema, VoicesQuerySchema, VoicesResponseSchema, VoiceSchema,
  StatusResponseSchema, ProviderStatusSchema, PROVIDER_STATUS_REASONS, type ProvidersResponse, type VoicesResponse, type StatusResponse,
} from './catalog.js';
export { buildOpenApiDocument } from './openapi.js';
export {
  SESSION_TOKEN_PREFIX, DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS, SESSION_TTL_DAYS,
  DeviceCodeResponseSchema, PollRequestSchema, SessionTokenResponseSchema, WhoamiResponseSchema, LogoutResponseSchema,
  SessionSchema, SessionListSchema, RevokedSessionSchema, LogoutAllResponseSchema,
} from './auth.js';
export {
  ApiKeySchema, ApiKeyListSchema, CreateApiKeyRequestSchema, UpdateApiKeyRequestSchema, CreatedApiKeySchema, DeletedApiKeySchema,
  KEY_LIMIT_BOUNDS, type UpdateApiKeyRequest,
} from './keys.js';
export { UsageQuerySchema, UsageResponseSchema } from './usage.js';
export {
  TOP_UP_MIN_CENTS, TOP_UP_MAX_CENTS, SAVED_CARDS_LISTED, BillingMethodSchema, BillingMethodsResponseSchema, TopUpRequestSchema,
  TopUpResponseSchema, WebhookAckSchema, type TopUpRequest, type BillingMethod,
} from './billing.js';
