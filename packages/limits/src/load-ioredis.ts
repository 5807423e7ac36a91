// ioredis is loaded when a Redis-backed limiter or peer channel starts, not when this package is imported:
// the embedded mode without REDIS_URL imports the package and never needs it. ioredis is CommonJS, so
// this and a static `import` elsewhere (tests) give the same module.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const loadIoredis = (): typeof import('ioredis') => require('ioredis') as typeof import('ioredis');
