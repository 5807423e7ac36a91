// BullMQ and ioredis are loaded when a queue, worker or Redis client is created, not when this package is
// imported: the embedded mode without REDIS_URL settles in-process and never needs them. Both are
// CommonJS, so these and a static `import` elsewhere (tests, the benchmark) give the same modules.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export const loadBullmq = (): typeof import('bullmq') => require('bullmq') as typeof import('bullmq');
export const loadIoredis = (): typeof import('ioredis') => require('ioredis') as typeof import('ioredis');
