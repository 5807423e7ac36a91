// @voice-router/service-kit: what every app needs at its edges: logging, configuration, shutdown.
export { createLogger, redact, type Logger, type LogLevel } from './logger.js';
export { parseEnvironment, booleanFlag, checkStreamBound, ConfigurationError } from './environment.js';
export { onShutdown } from './shutdown.js';
export { hashPassword, verifyPassword, passwordProblem } from './password-hashing.js';
export { parseTrustedProxies, normaliseAddress, isLoopbackAddress, trustedProxiesVariable, type TrustedProxies } from './trusted-proxies.js';
export * from './metrics/index.js';
