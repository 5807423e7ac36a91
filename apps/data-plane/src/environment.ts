// The data plane's configuration, parsed once at start-up. The embedded app extends this schema.
import { checkStreamBound, trustedProxiesVariable } from '@voice-router/service-kit';
import { z } from 'zod';
import { SERVER_CHOICES } from './server/select-server.js';

const url = z.url({ protocol: /^https?$/ });
/**
 * A provider base URL as that provider's official SDK takes it: OPENAI_BASE_URL includes the version path
 * (https://api.openai.com/v1), ELEVENLABS_BASE_URL and CARTESIA_BASE_URL are bare hosts. Trailing slashes are fine.
 */
const providerBaseUrl = url.optional();

/** auto = the native uWS build where it loads, else the node:http adapter; uws = native or fail; node = the adapter. */
export const serverChoiceSchema = z.enum(SERVER_CHOICES).default('auto');

export const providerEnvironmentShape = {
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: providerBaseUrl,
  ELEVENLABS_API_KEY: z.string().optional(),
  ELEVENLABS_BASE_URL: providerBaseUrl,
  CARTESIA_API_KEY: z.string().optional(),
  CARTESIA_BASE_URL: providerBaseUrl,
  LOCAL_TTS_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  /** Local synthesis requests that may wait for a worker; more are refused with 503 and Retry-After. */
  LOCAL_TTS_MAX_QUEUE: z.coerce.number().int().min(0).max(10_000).default(32),
  UPSTREAM_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  UPSTREAM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  UPSTREAM_CONNECTIONS_PER_ORIGIN: z.coerce.number().int().min(1).max(65_536).default(1024),
  /** Consecutive upstream failures that open a provider's circuit breaker (per process). */
  BREAKER_FAILURE_THRESHOLD: z.coerce.number().int().min(1).max(10_000).default(5),
  /** How long an open breaker refuses requests before one probe may go upstream. */
  BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
};

/**
 * The live catalog. Refreshers (the worker when scaled out, the embedded process) call each configured provider's
 * voice API every VOICE_CATALOG_REFRESH_MS and, when SMOKE_TEST_INTERVAL_MS > 0, run one paid smoke synthesis per
 * provider that often; data planes re-read what they stored every CATALOG_SYNC_INTERVAL_MS.
 */
export const catalogEnvironmentShape = {
  VOICE_CATALOG_REFRESH_MS: z.coerce.number().int().min(1_000).max(7 * 86_400_000).default(3_600_000),
  /** 0 (default) = no scheduled smoke tests: each one is a real, billed synthesis. */
  SMOKE_TEST_INTERVAL_MS: z.coerce.number().int().refine((value) => value === 0 || value >= 1_000, 'SMOKE_TEST_INTERVAL_MS must be 0 (off) or at least 1000').default(0),
  CATALOG_SYNC_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
};

/** How long one provider's whole voice listing, or one smoke synthesis, may take. */
export const CATALOG_TASK_TIMEOUT_MS = 60_000;

/** The refresher's settings from the environment (catalog variables plus the registry it calls). */
export function catalogRefreshSettings(environment: { VOICE_CATALOG_REFRESH_MS: number; SMOKE_TEST_INTERVAL_MS: number }) {
  return {
    voiceIntervalMs: environment.VOICE_CATALOG_REFRESH_MS,
    smokeTestIntervalMs: environment.SMOKE_TEST_INTERVAL_MS,
    listingTimeoutMs: CATALOG_TASK_TIMEOUT_MS,
    smokeTestTimeoutMs: CATALOG_TASK_TIMEOUT_MS,
  };
}

export const dataPlaneEnvironmentShape = {
  ...providerEnvironmentShape,
  ...catalogEnvironmentShape,
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  STREAM_MAX_DURATION_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Read here too so a data plane refuses to start with a reaper bound that would void live streams. */
  RESERVATION_REAP_AFTER_MS: z.coerce.number().int().min(1_000).default(900_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  CONTROL_PLANE_URL: url.optional(),
  /** Load balancers in front whose X-Forwarded-For is believed (IPs/CIDRs, comma-separated; default nobody). */
  TRUSTED_PROXIES: trustedProxiesVariable,
  /** Benchmarks: per-stream backlog and stream counts at GET /internal/metrics (loopback only). */
  DATA_PLANE_METRICS: z.stringbool().default(false),
  /** How long a settlement that cannot be written (database, and Redis, down) is retried in memory. */
  SETTLEMENT_RETRY_WINDOW_MS: z.coerce.number().int().min(1_000).max(3_600_000).default(120_000),
  /** Most settlements held in memory at once; past it a settlement is logged and left to the reaper. */
  SETTLEMENT_MAX_PENDING: z.coerce.number().int().min(1).max(10_000_000).default(100_000),
  /** At shutdown, how long to wait for held settlements before giving up on them (loudly). */
  SETTLEMENT_DRAIN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  /** Limits of keys that have none of their own; the same names and bounds as the control plane's. */
  DEFAULT_KEY_MAX_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(8),
  DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(600),
  /** `off` stops enforcing rate and concurrency limits (benchmarks, emergencies); spend caps always hold. */
  KEY_LIMITS: z.enum(['on', 'off']).default('on'),
  /** With REDIS_URL: how long a stream's concurrency slot outlives its replica (refreshed every third of it). */
  CONCURRENCY_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
  DATA_PLANE_SERVER: serverChoiceSchema,
};

export const dataPlaneEnvironmentSchema = z
  .object({
    ...dataPlaneEnvironmentShape,
    DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
    REDIS_URL: z.url({ protocol: /^rediss?$/ }),
    REDIS_PREFIX: z.string().min(1).default('vr'),
  })
  .superRefine(checkStreamBound);

export type DataPlaneEnvironment = z.infer<typeof dataPlaneEnvironmentSchema>;

const providerEnvironmentSchema = z.object(providerEnvironmentShape);
type ProviderEnvironment = z.infer<typeof providerEnvironmentSchema>;

/** Maps the environment onto the provider registry's configuration. */
export function providerSettings(environment: ProviderEnvironment) {
  return {
    attemptTimeoutMs: environment.UPSTREAM_ATTEMPT_TIMEOUT_MS,
    maxAttempts: environment.UPSTREAM_MAX_ATTEMPTS,
    connections: { connectionsPerOrigin: environment.UPSTREAM_CONNECTIONS_PER_ORIGIN },
    breaker: { failureThreshold: environment.BREAKER_FAILURE_THRESHOLD, cooldownMs: environment.BREAKER_COOLDOWN_MS },
    openai: { apiKey: environment.OPENAI_API_KEY, baseUrl: environment.OPENAI_BASE_URL },
    elevenlabs: { apiKey: environment.ELEVENLABS_API_KEY, baseUrl: environment.ELEVENLABS_BASE_URL },
    cartesia: { apiKey: environment.CARTESIA_API_KEY, baseUrl: environment.CARTESIA_BASE_URL },
    local: { workers: environment.LOCAL_TTS_WORKERS, maxQueued: environment.LOCAL_TTS_MAX_QUEUE },
  };
}

const settlerSettingsSchema = z.object({
  SETTLEMENT_RETRY_WINDOW_MS: dataPlaneEnvironmentShape.SETTLEMENT_RETRY_WINDOW_MS,
  SETTLEMENT_MAX_PENDING: dataPlaneEnvironmentShape.SETTLEMENT_MAX_PENDING,
  SETTLEMENT_DRAIN_TIMEOUT_MS: dataPlaneEnvironmentShape.SETTLEMENT_DRAIN_TIMEOUT_MS,
});

/** The settler's limits (in-process or queue), as both the standalone and the embedded process read them. */
export function settlerSettings(environment: z.infer<typeof settlerSettingsSchema>) {
  return {
    retry: { windowMs: environment.SETTLEMENT_RETRY_WINDOW_MS },
    maxPending: environment.SETTLEMENT_MAX_PENDING,
    drainTimeoutMs: environment.SETTLEMENT_DRAIN_TIMEOUT_MS,
  };
}

const dataPlaneSettingsSchema = z.object(dataPlaneEnvironmentShape);

/** The data plane's listening and timing options, as both the standalone and the embedded process read them. */
export function dataPlaneSettings(environment: z.infer<typeof dataPlaneSettingsSchema>) {
  return {
    host: environment.HOST,
    port: environment.PORT,
    authCacheTtlMs: environment.AUTH_CACHE_TTL_MS,
    streamMaxDurationMs: environment.STREAM_MAX_DURATION_MS,
    shutdownGraceMs: environment.SHUTDOWN_GRACE_MS,
    attemptTimeoutMs: environment.UPSTREAM_ATTEMPT_TIMEOUT_MS,
    trustedProxies: environment.TRUSTED_PROXIES,
    server: environment.DATA_PLANE_SERVER,
    keyLimitDefaults: { maxConcurrency: environment.DEFAULT_KEY_MAX_CONCURRENCY, rateLimitPerMinute: environment.DEFAULT_KEY_RATE_LIMIT_PER_MINUTE },
  };
}

/** How the key limiter is started: off, in this process's memory, or in Redis shared by every replica. */
export function keyLimiterSettings(environment: z.infer<typeof dataPlaneSettingsSchema> & { REDIS_URL?: string; REDIS_PREFIX: string }) {
  return {
    enabled: environment.KEY_LIMITS === 'on',
    redisUrl: environment.REDIS_URL,
    prefix: environment.REDIS_PREFIX,
    leaseTtlMs: environment.CONCURRENCY_LEASE_TTL_MS,
  };
}
