// Takes money back out of a wallet (a card refund, a lost dispute) with a `refund` row, once per
// idempotency key. The wallet never goes below what is reserved for requests in flight: when the
// spendable balance cannot cover the amount, only what is spendable is taken and the rest is
// recorded as the row's `metadata.shortfallMicros` for the operator to settle.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { isUniqueViolation } from './unique-violation.js';

export interface DebitWalletInput {
  accountId: string;
  amountMicros: bigint;
  /** stripe, admin, … */
  source: string;
  metadata?: Record<string, unknown>;
  /** Unique across the whole ledger (`stripe:refund:re_…`): a repeated debit takes nothing. */
  idempotencyKey: string;
}

export interface DebitWalletResult {
  entryId: string;
  /** What the row took from the balance (≤ the amount asked for). */
  takenMicros: bigint;
  /** What could not be taken because it was reserved or absent. */
  shortfallMicros: bigint;
  balanceMicros: bigint;
  /** True when the key had already been used: nothing was taken this time. */
  duplicate: boolean;
}

type EntryRow = { id: unknown; account_id: string; kind: string; micros_delta: unknown; micros_balance_after: unknown; metadata: unknown };

function fromRow(row: EntryRow, duplicate: boolean): DebitWalletResult {
  const metadata = (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as { shortfallMicros?: unknown };
  return {
    entryId: String(row.id),
    takenMicros: -toMicros(row.micros_delta),
    shortfallMicros: BigInt(String(metadata.shortfallMicros ?? 0)),
    balanceMicros: toMicros(row.micros_balance_after),
    duplicate,
  };
}

async function existing(sql: SqlClient, key: string): Promise<EntryRow | undefined> {
  const rows = await sql.query<EntryRow>(
    `SELECT id, account_id, kind, micros_delta, micros_balance_after, metadata FROM ledger_entries WHERE idempotency_key = $1`,
    [key],
  );
  return rows[0];
}

export async function findLedgerEntryByKey(sql: SqlClient, key: string): Promise<{ entryId: string; kind: string; microsDelta: bigint } | undefined> {
  const row = await existing(sql, key);
  return row && { entryId: String(row.id), kind: row.kind, microsDelta: toMicros(row.micros_delta) };
}

export async function debitWallet(sql: SqlClient, input: DebitWalletInput): Promise<DebitWalletResult> {
  if (input.amountMicros <= 0n) throw new RangeError('a debit must be positive');
  if (input.idempotencyKey.length === 0 || input.idempotencyKey.length > 255) throw new RangeError('an idempotency key has 1 to 255 characters');
  const known = await existing(sql, input.idempotencyKey);
  if (known) return fromRow(known, true);
  try {
    return await sql.transaction(async (transaction) => {
      await transaction.query(`SET LOCAL synchronous_commit = on`);
      // The row lock orders this debit against reservations and settlements of the same wallet.
      const [wallet] = await transaction.query<{ balance_micros: unknown; reserved_micros: unknown }>(
        `SELECT balance_micros, reserved_micros FROM wallets WHERE account_id = $1::uuid FOR UPDATE`,
        [input.accountId],
      );
      if (!wallet) throw new RangeError(`no wallet for account ${input.accountId}`);
      const spendable = toMicros(wallet.balance_micros) - toMicros(wallet.reserved_micros);
      const taken = spendable <= 0n ? 0n : spendable < input.amountMicros ? spendable : input.amountMicros;
      const shortfall = input.amountMicros - taken;
      const metadata = { ...input.metadata, requestedMicros: input.amountMicros.toString(), shortfallMicros: shortfall.toString() };
      const [row] = await transaction.query<EntryRow>(
        `WITH wallet AS (
           UPDATE wallets SET balance_micros = balance_micros - $2::bigint, updated_at = now()
           WHERE account_id = $1::uuid RETURNING balance_micros
         )
         INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, source, metadata, idempotency_key)
         SELECT $1::uuid, 'refund', -$2::bigint, wallet.balance_micros, $3, $4::jsonb, $5 FROM wallet
         RETURNING id, account_id, kind, micros_delta, micros_balance_after, metadata`,
        [input.accountId, taken, input.source, JSON.stringify(metadata), input.idempotencyKey],
      );
      return fromRow(row!, false);
    });
  } catch (error) {
    // A concurrent debit with the same key won; this one rolled back entirely.
    if (isUniqueViolation(error)) {
      const winner = await existing(sql, input.idempotencyKey);
      if (winner) return fromRow(winner, true);
    }
    throw error;
  }
}
