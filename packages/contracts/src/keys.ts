// API keys as their owners manage them (with a session token).
import { z } from 'zod';

const micros = z.int().min(0).max(Number.MAX_SAFE_INTEGER);

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
    name: z.string().trim().min(1).max(100),
    maxConcurrency: z.int().min(1).max(10_000).optional(),
    rateLimitPerMinute: z.int().min(1).max(1_000_000).optional(),
    dailySpendCapMicros: micros.optional(),
    monthlySpendCapMicros: micros.optional(),
  })
  .meta({ id: 'CreateApiKeyRequest', description: 'Limits are stored now and enforced by the data plane in a later release.' });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  keyValue: z.string().describe('The `pk_` secret. Shown once; only a hash is stored.'),
}).meta({ id: 'CreatedApiKey' });

export const DeletedApiKeySchema = z.object({ deleted: z.literal(true) }).meta({ id: 'DeletedApiKey' });
