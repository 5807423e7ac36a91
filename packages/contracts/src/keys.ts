// API keys as their owners manage them (with a session token).
import { z } from 'zod';

const micros = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

/** What a key may set; the deployment defaults (DEFAULT_KEY_*) obey the same bounds. */
export const KEY_LIMIT_BOUNDS = {
  maxConcurrency: { min: 1, max: 10_000 },
  rateLimitPerMinute: { min: 1, max: 1_000_000 },
} as const;
const maxConcurrency = z.int().min(KEY_LIMIT_BOUNDS.maxConcurrency.min).max(KEY_LIMIT_BOUNDS.maxConcurrency.max);
const rateLimitPerMinute = z.int().min(KEY_LIMIT_BOUNDS.rateLimitPerMinute.min).max(KEY_LIMIT_BOUNDS.rateLimitPerMinute.max);
// PostgreSQL text cannot hold NUL, and no name needs control characters (the fuzz found a 500 here).
const keyName = z.string().trim().min(1).max(100).refine((name) => !/[\u0000-\u001f\u007f]/.test(name), 'must not contain control characters');
const LIMITS_DESCRIPTION =
  'maxConcurrency: speech streams open at once (429 concurrency_limited beyond it). rateLimitPerMinute: requests per 60-second window ' +
  '(429 rate_limited beyond it). Without them the deployment defaults apply (DEFAULT_KEY_MAX_CONCURRENCY, DEFAULT_KEY_RATE_LIMIT_PER_MINUTE). ' +
  'dailySpendCapMicros / monthlySpendCapMicros: committed plus reserved spend of this key in the current UTC day / UTC month ' +
  '(402 spend_limit_exceeded beyond it); without them there is no cap.';

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    keySuffix: z.string().describe('Last four characters of the secret, to tell keys apart.'),
    maxConcurrency: z.int().min(1).describe(
      'Most streams this key may have open at once: its own limit, or the deployment default (DEFAULT_KEY_MAX_CONCURRENCY, 8) when it has none.',
    ),
    rateLimitPerMinute: z.int().min(1).describe(
      'Most requests per minute: its own limit, or the deployment default (DEFAULT_KEY_RATE_LIMIT_PER_MINUTE, 600) when it has none.',
    ),
    dailySpendCapMicros: z.int().nullable(),
    monthlySpendCapMicros: z.int().nullable(),
    createdAt: z.string(),
    createdBy: z.string().nullable().describe('Email of the member who minted it; only they may revoke it.'),
  })
  .meta({ id: 'ApiKey' });

export const ApiKeyListSchema = z.object({ keys: z.array(ApiKeySchema) }).meta({ id: 'ApiKeyList' });

export const CreateApiKeyRequestSchema = z
  .strictObject({
    name: keyName,
    maxConcurrency: maxConcurrency.optional(),
    rateLimitPerMinute: rateLimitPerMinute.optional(),
    dailySpendCapMicros: micros.optional(),
    monthlySpendCapMicros: micros.optional(),
  })
  .meta({ id: 'CreateApiKeyRequest', description: LIMITS_DESCRIPTION });

export const UpdateApiKeyRequestSchema = z
  .strictObject({
    name: keyName.optional(),
    maxConcurrency: maxConcurrency.nullable().optional(),
    rateLimitPerMinute: rateLimitPerMinute.nullable().optional(),
    dailySpendCapMicros: micros.nullable().optional(),
    monthlySpendCapMicros: micros.nullable().optional(),
  })
  .refine((changes) => Object.keys(changes).length > 0, { message: 'send at least one field to change' })
  .meta({
    id: 'UpdateApiKeyRequest',
    description: `Only the fields present change; null sets a limit back to the deployment default, or removes a cap. ${LIMITS_DESCRIPTION}`,
  });

export type UpdateApiKeyRequest = z.infer<typeof UpdateApiKeyRequestSchema>;

export const CreatedApiKeySchema = ApiKeySchema.extend({
  keyValue: z.string().describe('The `pk_` secret. Shown once; only a hash is stored.'),
}).meta({ id: 'CreatedApiKey' });

export const DeletedApiKeySchema = z.object({ deleted: z.literal(true) }).meta({ id: 'DeletedApiKey' });
