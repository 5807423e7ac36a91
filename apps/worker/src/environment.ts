// The worker's configuration.
import { catalogEnvironmentShape, providerEnvironmentShape } from '@voice-router/data-plane';
import { checkStreamBound, LOG_LEVELS, metricsEnvironmentShape } from '@voice-router/service-kit';
import { DEFAULT_SETTLEMENT_CONCURRENCY, DEFAULT_SETTLEMENT_PARTITIONS } from '@voice-router/settlement';
import { z } from 'zod';

export const workerEnvironmentSchema = z
  .object({
  /** The provider settings the data planes have: the worker calls voice APIs and runs smoke tests with them. */
  ...providerEnvironmentShape,
  ...catalogEnvironmentShape,
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  REDIS_PREFIX: z.string().min(1).default('vr'),
  SETTLEMENT_CONCURRENCY: z.coerce.number().int().min(1).max(500).default(DEFAULT_SETTLEMENT_CONCURRENCY),
  /**
   * Partitions by account whose batches are written at once (each holds up to two of the pool's
   * connections while it writes): see DEFAULT_SETTLEMENT_PARTITIONS.
   */
  SETTLEMENT_PARTITIONS: z.coerce.number().int().min(1).max(32).default(DEFAULT_SETTLEMENT_PARTITIONS),
  RESERVATION_REAP_AFTER_MS: z.coerce.number().int().min(1_000).default(900_000),
  /** The data plane's; read here so a worker refuses a reaper bound that would void live streams. */
  STREAM_MAX_DURATION_MS: z.coerce.number().int().min(1_000).default(300_000),
  REAPER_INTERVAL_MS: z.coerce.number().int().min(100).default(30_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(20),
  /** debug | info | warn | error | silent (nothing). */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Where the listener of /metrics, /healthz and /readyz binds (the worker serves nothing else); the images set 0.0.0.0. */
  HOST: z.string().default('127.0.0.1'),
  ...metricsEnvironmentShape,
  })
  .superRefine(checkStreamBound);
