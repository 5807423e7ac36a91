// The data plane's configuration, parsed once at start-up. The embedded app extends this schema.
import { z } from 'zod';
import { SERVER_CHOICES } from './server/select-server.js';

const url = z.url({ protocol: /^https?$/ });

/** auto = the native uWS build where it loads, else the node:http adapter; uws = native or fail; node = the adapter. */
export const serverChoiceSchema = z.enum(SERVER_CHOICES).default('auto');

export const providerEnvironmentShape = {
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: url.optional(),
  ELEVENLABS_API_KEY: z.string().optional(),
  ELEVENLABS_BASE_URL: url.optional(),
  CARTESIA_API_KEY: z.string().optional(),
  CARTESIA_BASE_URL: url.optional(),
  LOCAL_TTS_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  UPSTREAM_ATTEMPT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  UPSTREAM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  UPSTREAM_CONNECTIONS_PER_ORIGIN: z.coerce.number().int().min(1).max(65_536).default(1024),
};

export const dataPlaneEnvironmentShape = {
  ...providerEnvironmentShape,
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(500),
  STREAM_MAX_DURATION_MS: z.coerce.number().int().min(1_000).default(300_000),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  CONTROL_PLANE_URL: url.optional(),
  /** Benchmarks: per-stream backlog and stream counts at GET /internal/metrics (loopback only). */
  DATA_PLANE_METRICS: z.stringbool().default(false),
  DATA_PLANE_SERVER: serverChoiceSchema,
};

export const dataPlaneEnvironmentSchema = z.object({
  ...dataPlaneEnvironmentShape,
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }),
  REDIS_PREFIX: z.string().min(1).default('vr'),
});

export type DataPlaneEnvironment = z.infer<typeof dataPlaneEnvironmentSchema>;

const providerEnvironmentSchema = z.object(providerEnvironmentShape);
type ProviderEnvironment = z.infer<typeof providerEnvironmentSchema>;

/** Maps the environment onto the provider registry's configuration. */
export function providerSettings(environment: ProviderEnvironment) {
  return {
    attemptTimeoutMs: environment.UPSTREAM_ATTEMPT_TIMEOUT_MS,
    maxAttempts: environment.UPSTREAM_MAX_ATTEMPTS,
    connections: { connectionsPerOrigin: environment.UPSTREAM_CONNECTIONS_PER_ORIGIN },
    openai: { apiKey: environment.OPENAI_API_KEY, baseUrl: environment.OPENAI_BASE_URL },
    elevenlabs: { apiKey: environment.ELEVENLABS_API_KEY, baseUrl: environment.ELEVENLABS_BASE_URL },
    cartesia: { apiKey: environment.CARTESIA_API_KEY, baseUrl: environment.CARTESIA_BASE_URL },
    local: { workers: environment.LOCAL_TTS_WORKERS },
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
    attemptTimeoutMs: environment.UPSTREAM_ATTEMPT_TIMEOUT_MS,
    server: environment.DATA_PLANE_SERVER,
  };
}
