// Adds money to a wallet with a top-up ledger row (operator grants, card payments). A caller that may
// retry passes an idempotency key: the ledger holds at most one row per key, so a retried grant
// credits once and answers with the row that the first attempt wrote.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { isUniqueViolation } from './unique-violation.js';

export interface GrantCreditInput {
  accountId: string;
  amountMicros: bigint;
  /** admin, stripe, … */
  source: string;
  metadata?: Record<string, unknown>;
  /** Unique across the whole ledger; namespace it by source (`admin:…`, `stripe:pi_…`). */
  idempotencyKey?: string;
}

export interface GrantCreditResult {
  entryId: string;
  balanceMicros: bigint;
  /** True when the key had already been used: nothing was credited this time. */
  duplicate: boolean;
}

export class UnknownAccountError extends Error {}

/** The key was used before for another account or amount: refusing is safer than guessing. */
export class IdempotencyConflictError extends Error {
  override readonly name = 'IdempotencyConflictError';
}

const GRANT = `
WITH wallet AS (
  UPDATE wallets SET balance_micros = balance_micros + $2::bigint, updated_at = now()
  WHERE account_id = $1::uuid RETURNING balance_micros
)
INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, source, metadata, idempotency_key)
SELECT $1::uuid, 'top-up', $2::bigint, wallet.balance_micros, $3, $4::jsonb, $5 FROM wallet
RETURNING id, micros_balance_after`;

export async function grantCredit(sql: SqlClient, input: GrantCreditInput): Promise<GrantCreditResult> {
  if (input.amountMicros <= 0n) throw new RangeError('a grant must be positive');
  if (input.idempotencyKey !== undefined && (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 255)) {
    throw new RangeError('an idempotency key has 1 to 255 characters');
  }
  let rows: Array<{ id: unknown; micros_balance_after: unknown }>;
  try {
    // Money coming in must survive a database crash once we have said it arrived.
    rows = await sql.transaction(async (transaction) => {
      await transaction.query(`SET LOCAL synchronous_commit = on`);
      return transaction.query<{ id: unknown; micros_balance_after: unknown }>(GRANT, [
        input.accountId, input.amountMicros, input.source, JSON.stringify(input.metadata ?? {}), input.idempotencyKey ?? null,
      ]);
    });
  } catch (error) {
    // The whole statement failed, wallet update included: a concurrent or earlier grant owns the key.
    if (input.idempotencyKey !== undefined && isUniqueViolation(error)) {
      return existingGrant(sql, input);
    }
    throw error;
  }
  const row = rows[0];
  if (!row) throw new UnknownAccountError(`no wallet for account ${input.accountId}`);
  return { entryId: String(row.id), balanceMicros: toMicros(row.micros_balance_after), duplicate: false };
}

async function existingGrant(sql: SqlClient, input: GrantCreditInput): Promise<GrantCreditResult> {
  const rows = await sql.query<{ id: unknown; account_id: string; kind: string; micros_delta: unknown; micros_balance_after: unknown }>(
    `SELECT id, account_id, kind, micros_delta, micros_balance_after FROM ledger_entries WHERE idempotency_key = $1`,
    [input.idempotencyKey ?? null],
  );
  const row = rows[0];
  if (!row) throw new Error('idempotency key reported as used but no row holds it');
  if (row.account_id !== input.accountId || row.kind !== 'top-up' || toMicros(row.micros_delta) !== input.amountMicros) {
    throw new IdempotencyConflictError('this idempotency key was already used for a different grant');
  }
  return { entryId: String(row.id), balanceMicros: toMicros(row.micros_balance_after), duplicate: true };
}
