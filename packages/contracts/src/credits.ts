// The wallet as clients see it: integer USD micro-dollars.
import { z } from 'zod';

export const CreditsResponseSchema = z
  .object({
    balanceMicros: z.int().describe('All money in the wallet, including what is reserved.'),
    reservedMicros: z.int().describe(
      'Held by requests in flight, and by allowances a data plane holds for this account while its traffic is hot (money set aside for requests about to be served; returned about a second after the traffic stops). Spendable = balance − reserved.',
    ),
  })
  .meta({ id: 'Credits' });

export const ActivityQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
});

export const LedgerKindSchema = z.enum(['top-up', 'reserve', 'commit', 'refund', 'void']);

export const ActivityRowSchema = z
  .object({
    id: z.string(),
    kind: LedgerKindSchema,
    microsDelta: z.int().describe('Change to the balance. Reserve and void rows are 0 (they move only the reserved amount, in metadata.amountMicros).'),
    microsBalanceAfter: z.int(),
    reservationId: z.string().nullable(),
    source: z.string().describe('admin, request, worker, reaper, …'),
    metadata: z.record(z.string(), z.unknown()).describe(
      'Details of the row. A request\'s reserve row: amountMicros, provider, model, characters; its commit row: provider, model, '
      + 'characters and what the settlement adds (deliveredBytes, …); its void row: amountMicros, errorCode, provider, model. A reserve '
      + 'row with allowance: true is money a data plane set aside for a hot account (amountMicros); the requests it pays for have no '
      + 'reserve row of their own, and their commit or void row names it (allowanceId) and the API key (apiKeyId).',
    ),
    createdAt: z.string().describe('ISO 8601'),
  })
  .meta({ id: 'LedgerRow' });

export const ActivityResponseSchema = z.object({ rows: z.array(ActivityRowSchema) }).meta({ id: 'Activity' });

export type CreditsResponse = z.infer<typeof CreditsResponseSchema>;
export type ActivityRow = z.infer<typeof ActivityRowSchema>;
