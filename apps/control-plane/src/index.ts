// @voice-router/control-plane: the Express app for accounts, keys, billing, usage and the console.
export { createControlPlaneApp, type ControlPlaneOptions } from './control-plane.js';
export { controlPlaneSettingsShape, controlPlaneSettings } from './environment.js';
export { listen } from './listen.js';
export { DEFAULT_KEY_LIMITS, type KeyLimitDefaults } from './key-limits.js';
export { createRateLimitStore, createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore, type RateLimiter } from './security/rate-limiter.js';
export { ATTEMPT_LIMITS } from './security/attempt-limits.js';
