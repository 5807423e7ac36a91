// Adds money to a wallet with a top-up ledger row (operator grants now; card payments later).
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';

export interface GrantCreditInput {
  accountId: string;
  amountMicros: bigint;
  /** admin, stripe, … */
  source: string;
  metadata?: Record<string, unknown>;
}

export class UnknownAccountError extends Error {}

export async function grantCredit(sql: SqlClient, input: GrantCreditInput): Promise<{ entryId: string; balanceMicros: bigint }> {
  if (input.amountMicros <= 0n) throw new RangeError('a grant must be positive');
  // Money coming in must survive a database crash once we have said it arrived.
  const rows = await sql.transaction(async (transaction) => {
    await transaction.query(`SET LOCAL synchronous_commit = on`);
    return transaction.query<{ id: unknown; micros_balance_after: unknown }>(
      `WITH wallet AS (
       UPDATE wallets SET balance_micros = balance_micros + $2::bigint, updated_at = now()
       WHERE account_id = $1::uuid RETURNING balance_micros
     )
     INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, source, metadata)
     SELECT $1::uuid, 'top-up', $2::bigint, wallet.balance_micros, $3, $4::jsonb FROM wallet
     RETURNING id, micros_balance_after`,
      [input.accountId, input.amountMicros, input.source, JSON.stringify(input.metadata ?? {})],
    );
  });
  const row = rows[0];
  if (!row) throw new UnknownAccountError(`no wallet for account ${input.accountId}`);
  return { entryId: String(row.id), balanceMicros: toMicros(row.micros_balance_after) };
}
