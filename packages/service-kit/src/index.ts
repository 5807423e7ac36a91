// @voice-router/service-kit: what every app needs at its edges: logging, configuration, shutdown.
export { createLogger, drainLogs, flushLogs, secretSettings, LOG_LEVELS, REDACT_PATHS, type LineFields, type Logger, type LoggerOptions, type LogLevel } from './logger.js';
export { createSecretScrubber, scrubSecrets, REDACTED, type SecretScrubber } from './secret-scrubber.js';
export { parseTraceparent, childTraceparent, newSpanId, type TraceContext } from './trace-context.js';
export { parseEnvironment, booleanFlag, checkStreamBound, ConfigurationError } from './environment.js';
export { onShutdown } from './shutdown.js';
export { hashPassword, verifyPassword, passwordProblem } from './password-hashing.js';
export { parseTrustedProxies, normaliseAddress, isLoopbackAddress, trustedProxiesVariable, type TrustedProxies } from './trusted-proxies.js';
export * from './metrics/index.js';
