// The data plane's configuration, parsed once at start-up. The embedded app extends this schema.
import { readFileSync } from 'node:fs';
import {
  applyPricingOverrides, openAICompatibleHostModule, openAICompatibleHostSettings, OPENAI_COMPATIBLE_PREFIX, parseOpenAICompatibleHosts,
  parsePricingOverrides, providerModules, providerSettingsFromEnvironment, settingsEnvironmentShape, type PricingOverrides, type ProviderModule,
} from '@voice-router/providers';
import { checkStreamBound, ConfigurationError, LOG_LEVELS, metricsEnvironmentShape, trustedProxiesVariable } from '@voice-router/service-kit';
import { ALLOWANCE_MAX_AGE_MS, DEFAULT_ALLOWANCE_SETTINGS } from '@voice-router/ledger';
import { z } from 'zod';
import { SERVER_CHOICES } from './server/select-server.js';

const url = z.url({ protocol: /^https?$/ });
/** auto = the native uWS build where it loads, else the node:http adapter; uws = native or fail; node = the adapter. */
export const serverChoiceSchema = z.enum(SERVER_CHOICES).default('auto');

export const providerEnvironmentShape = {
  /**
   * Every listed provider's own settings (`<ID>_API_KEY`, `<ID>_BASE_URL` following that provider's SDK
   * convention, extras such as AWS_REGION), as each module declares them.
   */
  ...settingsEnvironmentShape(providerModules),
  /** A JSON file of per-deployment prices, `{"<provider>/<model>": {"microsPerUnit": n}}`; checked at start. */
  PRICING_FILE: z.string().min(1).optional(),
  /** The same document inline (for platforms without files); not together with PRICING_FILE. */
  PRICING_JSON: z.string().min(1).optional(),
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
  /** debug | info | warn | error | silent (nothing, request lines included). */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  STREAM_MAX_DURATION_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** Read here too so a data plane refuses to start with a reaper bound that would void live streams. */
  RESERVATION_REAP_AFTER_MS: z.coerce.number().int().min(1_000).default(900_000),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  CONTROL_PLANE_URL: url.optional(),
  /** Load balancers in front whose X-Forwarded-For is believed (IPs/CIDRs, comma-separated; default nobody). */
  TRUSTED_PROXIES: trustedProxiesVariable,
  ...metricsEnvironmentShape,
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
  /** With REDIS_URL: `off` checks every request of a key with roomy limits in Redis too, instead of from this replica's grant. */
  KEY_LIMIT_GRANTS: z.enum(['on', 'off']).default('on'),
  /** With REDIS_URL: how long a stream's concurrency slot outlives its replica (refreshed every third of it). */
  CONCURRENCY_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(300_000).default(10_000),
  DATA_PLANE_SERVER: serverChoiceSchema,
  /**
   * Allowances for hot accounts (RFC 4006-style credit control): the most one data plane reserves at
   * once for one account, in micro-dollars, and spends request by request in memory. 0 = off (every
   * request reserves on its own in the database).
   */
  ALLOWANCE_MAX_MICROS: z.coerce.bigint().min(0n).max(1_000_000_000n).default(1_000_000n),
  /** An account is hot, and gets an allowance, once one data plane sees this many of its requests in a second. */
  ALLOWANCE_HOT_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_ALLOWANCE_SETTINGS.hotRequestsPerSecond),
  /** An allowance without a request for this long is returned (what it has not spent goes back to the wallet). */
  ALLOWANCE_IDLE_MS: z.coerce.number().int().min(50).max(ALLOWANCE_MAX_AGE_MS).default(1_000),
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

function readPricingOverrides(environment: { PRICING_FILE?: string; PRICING_JSON?: string }): PricingOverrides | undefined {
  if (environment.PRICING_FILE !== undefined && environment.PRICING_JSON !== undefined) {
    throw new Error('PRICING_FILE and PRICING_JSON are both set; use one');
  }
  if (environment.PRICING_JSON !== undefined) return parsePricingOverrides(environment.PRICING_JSON, 'PRICING_JSON');
  if (environment.PRICING_FILE === undefined) return undefined;
  let text: string;
  try {
    text = readFileSync(environment.PRICING_FILE, 'utf8');
  } catch (error) {
    throw new Error(`PRICING_FILE ${environment.PRICING_FILE}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  return parsePricingOverrides(text, `PRICING_FILE ${environment.PRICING_FILE}`);
}

/**
 * The deployment's price overrides, checked against every listed provider's models. Anything wrong is a
 * ConfigurationError naming the entry: the process refuses to start rather than charge an unintended price.
 */
export function pricingOverrides(
  environment: { PRICING_FILE?: string; PRICING_JSON?: string },
  modules: readonly ProviderModule<never>[] = providerModules,
): PricingOverrides | undefined {
  try {
    const overrides = readPricingOverrides(environment);
    applyPricingOverrides(modules.map((module) => module.descriptor), overrides);
    return overrides;
  } catch (error) {
    throw new ConfigurationError(`invalid prices: ${(error as Error).message}`);
  }
}

/** The process environment's OPENAI_COMPATIBLE_* variables (they are read by prefix, not by the schema). */
export function openAICompatibleVariables(raw: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  return Object.fromEntries(
    Object.entries(raw).filter((entry): entry is [string, string] => entry[0].startsWith(OPENAI_COMPATIBLE_PREFIX) && entry[1] !== undefined && entry[1] !== ''),
  );
}

/**
 * The built-in providers plus the OpenAI-compatible hosts the environment declares (OPENAI_COMPATIBLE_<NAME>_*),
 * with the hosts' settings; a bad declaration is a ConfigurationError naming the variable.
 */
export function providerLineup(raw: Readonly<Record<string, string | undefined>> = process.env) {
  try {
    const hosts = parseOpenAICompatibleHosts(openAICompatibleVariables(raw), providerModules.map((module) => module.id));
    const modules: readonly ProviderModule<never>[] = [...providerModules, ...hosts.map(openAICompatibleHostModule)];
    return { modules, hostSettings: openAICompatibleHostSettings(hosts) };
  } catch (error) {
    throw new ConfigurationError((error as Error).message);
  }
}

/**
 * Maps the environment onto the provider registry's configuration. `raw` is the process environment, read for
 * the OPENAI_COMPATIBLE_* hosts (their variables are named by the operator, so no fixed schema holds them).
 */
export function providerSettings(environment: ProviderEnvironment, raw: Readonly<Record<string, string | undefined>> = process.env) {
  const lineup = providerLineup(raw);
  return {
    modules: lineup.modules,
    pricing: pricingOverrides(environment, lineup.modules),
    attemptTimeoutMs: environment.UPSTREAM_ATTEMPT_TIMEOUT_MS,
    maxAttempts: environment.UPSTREAM_MAX_ATTEMPTS,
    connections: { connectionsPerOrigin: environment.UPSTREAM_CONNECTIONS_PER_ORIGIN },
    breaker: { failureThreshold: environment.BREAKER_FAILURE_THRESHOLD, cooldownMs: environment.BREAKER_COOLDOWN_MS },
    providers: { ...providerSettingsFromEnvironment(providerModules, environment), ...lineup.hostSettings },
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
    allowances: {
      ...DEFAULT_ALLOWANCE_SETTINGS,
      maxMicros: environment.ALLOWANCE_MAX_MICROS,
      hotRequestsPerSecond: environment.ALLOWANCE_HOT_REQUESTS_PER_SECOND,
      idleMs: environment.ALLOWANCE_IDLE_MS,
    },
  };
}

/** How the key limiter is started: off, in this process's memory, or in Redis shared by every replica. */
export function keyLimiterSettings(environment: z.infer<typeof dataPlaneSettingsSchema> & { REDIS_URL?: string; REDIS_PREFIX: string }) {
  return {
    enabled: environment.KEY_LIMITS === 'on',
    redisUrl: environment.REDIS_URL,
    prefix: environment.REDIS_PREFIX,
    leaseTtlMs: environment.CONCURRENCY_LEASE_TTL_MS,
    grants: environment.KEY_LIMIT_GRANTS === 'on',
  };
}
