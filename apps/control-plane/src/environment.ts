// The control plane's configuration as a process of its own (scaled-out mode).
import { KEY_LIMIT_BOUNDS } from '@voice-router/contracts';
import { LOG_LEVELS, metricsEnvironmentShape, trustedProxiesVariable } from '@voice-router/service-kit';
import { z } from 'zod';
import { DEFAULT_KEY_LIMITS } from './key-limits.js';

export const controlPlaneSettingsShape = {
  AUTH_ENABLED: z.stringbool().default(true),
  SIGNUP_MODE: z.enum(['open', 'invite']).default('open'),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** What a key without its own limit shows; the data plane reads the same variables to enforce them. */
  DEFAULT_KEY_MAX_CONCURRENCY: z.coerce.number().int()
    .min(KEY_LIMIT_BOUNDS.maxConcurrency.min).max(KEY_LIMIT_BOUNDS.maxConcurrency.max).default(DEFAULT_KEY_LIMITS.maxConcurrency),
  DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int()
    .min(KEY_LIMIT_BOUNDS.rateLimitPerMinute.min).max(KEY_LIMIT_BOUNDS.rateLimitPerMinute.max).default(DEFAULT_KEY_LIMITS.rateLimitPerMinute),
  /** Proxies whose X-Forwarded-* headers are believed: in the scaled-out mode, the data planes' addresses. */
  TRUSTED_PROXIES: trustedProxiesVariable,
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'a Stripe secret key (sk_live_…, sk_test_…, or a restricted rk_… key)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, 'the webhook endpoint\'s signing secret (whsec_…)').optional(),
  STRIPE_API_BASE_URL: z
    .url({ protocol: /^https?$/ })
    .refine((url) => ['', '/'].includes(new URL(url).pathname) && !new URL(url).search, 'only a scheme, host and port (the API is under /v1)')
    .optional(),
};

export const controlPlaneEnvironmentSchema = z.object({
  ...controlPlaneSettingsShape,
  HOST: z.string().default('127.0.0.1'),
  CONTROL_PLANE_PORT: z.coerce.number().int().min(0).max(65_535).default(8081),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/ }),
  /** With it, attempt limits are counted in Redis and shared by every control-plane replica. */
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  REDIS_PREFIX: z.string().min(1).default('vr'),
  /** debug | info | warn | error | silent (nothing). */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  ...metricsEnvironmentShape,
  /** A data plane (or the load balancer in front of them) the console's Voices page reads and synthesizes through. */
  DATA_PLANE_URL: z.url({ protocol: /^https?$/ }).optional(),
});

const settingsSchema = z.object(controlPlaneSettingsShape);
type Settings = z.infer<typeof settingsSchema>;

export function controlPlaneSettings(environment: Settings) {
  return {
    authEnabled: environment.AUTH_ENABLED,
    signupMode: environment.SIGNUP_MODE,
    publicBaseUrl: environment.PUBLIC_BASE_URL,
    cookieSecure: environment.COOKIE_SECURE === 'auto' ? ('auto' as const) : environment.COOKIE_SECURE === 'true',
    keyLimitDefaults: { maxConcurrency: environment.DEFAULT_KEY_MAX_CONCURRENCY, rateLimitPerMinute: environment.DEFAULT_KEY_RATE_LIMIT_PER_MINUTE },
    trustedProxies: environment.TRUSTED_PROXIES,
    // Without a secret key there is no billing at all (503 billing_not_configured, no Billing page).
    stripe: environment.STRIPE_SECRET_KEY
      ? { secretKey: environment.STRIPE_SECRET_KEY, webhookSecret: environment.STRIPE_WEBHOOK_SECRET, apiBaseUrl: environment.STRIPE_API_BASE_URL }
      : undefined,
  };
}
