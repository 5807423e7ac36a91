// Usage rollups per account, built from commit and void ledger rows.
import { z } from 'zod';

export const UsageQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(30),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const UsageResponseSchema = z
  .object({
    totals: z.object({ requests: z.int(), costMicros: z.int(), errorCount: z.int() }),
    byProvider: z.array(z.object({ provider: z.string(), requests: z.int(), costMicros: z.int() })),
    byErrorCode: z.array(z.object({ code: z.string(), count: z.int() })),
    byDay: z
      .array(z.object({ day: z.string(), provider: z.string(), costMicros: z.int(), requests: z.int() }))
      .describe('Extension: spend per UTC day and provider, oldest first (for charts).'),
    recent: z.array(z.object({ id: z.string(), createdAt: z.string(), status: z.enum(['committed', 'voided']), costMicros: z.int() })),
  })
  .meta({
    id: 'Usage',
    description: 'Aggregates the newest `limit` commit and void rows of the last `days` days: a commit is a request, a void an error (with the code that caused it).',
  });
