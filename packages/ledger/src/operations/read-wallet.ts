// Reads a wallet, its activity, and an audit of its ledger.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { mapLedgerRow, type LedgerRow } from './ledger-rows.js';

export interface WalletState {
  balanceMicros: bigint;
  reservedMicros: bigint;
}

export async function getCredits(sql: SqlClient, accountId: string): Promise<WalletState | undefined> {
  const rows = await sql.query<{ balance_micros: unknown; reserved_micros: unknown }>(
    'SELECT balance_micros, reserved_micros FROM wallets WHERE account_id = $1::uuid',
    [accountId],
    'ledger_get_credits',
  );
  const row = rows[0];
  return row && { balanceMicros: toMicros(row.balance_micros), reservedMicros: toMicros(row.reserved_micros) };
}

/**
 * One account's rows, newest first, read through the (account_id, id DESC) index whatever the planner
 * believes. With `account_id = $1 … ORDER BY id DESC`, PostgreSQL drops the constant column from the
 * order and, for an account that holds a large share of the table, prefers walking the primary key
 * backwards and filtering: fast while that account wrote the newest rows, but once other accounts have
 * written since, every newer row is read and thrown away (1.8 million rows: 0.1 ms became 58 ms, with
 * fresh statistics). As a range, the account column stays in the order, which only the account index
 * gives without sorting. The same form serves the usage report (usage-report.ts).
 */
export const ACCOUNT_ROWS = 'account_id >= $1::uuid AND account_id <= $1::uuid';
export const NEWEST_FIRST = 'ORDER BY account_id, id DESC';

/** Newest first, `limit` rows (see ACCOUNT_ROWS: fast on long ledgers, whoever wrote last). */
export async function listActivity(sql: SqlClient, accountId: string, limit: number): Promise<LedgerRow[]> {
  const rows = await sql.query(
    `SELECT id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata, created_at
     FROM ledger_entries WHERE ${ACCOUNT_ROWS} ${NEWEST_FIRST} LIMIT $2::int`,
    [accountId, limit],
    'ledger_list_activity',
  );
  return rows.map(mapLedgerRow);
}

export interface WalletAudit extends WalletState {
  sumOfDeltas: bigint;
  pendingReservedMicros: bigint;
  /** balance = Σ deltas, reserved = Σ pending reservations, and each entry's balance-after is the running sum. */
  consistent: boolean;
}

export async function auditWallet(sql: SqlClient, accountId: string): Promise<WalletAudit> {
  const [row] = await sql.query<Record<string, unknown>>(
    `SELECT w.balance_micros, w.reserved_micros,
            (SELECT coalesce(sum(micros_delta), 0) FROM ledger_entries WHERE account_id = $1::uuid) AS sum_of_deltas,
            (SELECT coalesce(sum(amount_micros), 0) FROM reservations WHERE account_id = $1::uuid AND state = 'pending') AS pending,
            (SELECT count(*) FROM (
               SELECT micros_balance_after, sum(micros_delta) OVER (ORDER BY id) AS running
               FROM ledger_entries WHERE account_id = $1::uuid) AS entries
             WHERE micros_balance_after <> running) AS broken_rows
     FROM wallets w WHERE w.account_id = $1::uuid`,
    [accountId],
  );
  if (!row) throw new RangeError(`no wallet for account ${accountId}`);
  const audit = {
    balanceMicros: toMicros(row.balance_micros),
    reservedMicros: toMicros(row.reserved_micros),
    sumOfDeltas: toMicros(row.sum_of_deltas),
    pendingReservedMicros: toMicros(row.pending),
  };
  return {
    ...audit,
    consistent:
      audit.balanceMicros === audit.sumOfDeltas &&
      audit.reservedMicros === audit.pendingReservedMicros &&
      toMicros(row.broken_rows) === 0n,
  };
}
