// Reserves a request's cost in one atomic statement: only if spendable (balance − reserved) covers it
// and, for a key with spend caps, only if its UTC day's and UTC month's spend stay within them.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { spendWindowResets, type SpendCapKind } from './spend-windows.js';

export interface ReserveCreditInput {
  reservationId: string;
  accountId: string;
  apiKeyId: string | null;
  amountMicros: bigint;
  provider: string;
  model: string;
  characters: number;
  /** The key's caps (null or absent: none). Committed plus reserved spend in the window counts. */
  dailySpendCapMicros?: bigint | null;
  monthlySpendCapMicros?: bigint | null;
}

export type ReserveCreditResult =
  | { ok: true; balanceMicros: bigint; reservedMicros: bigint }
  | { ok: false; reason: 'insufficient_credit' }
  | { ok: false; reason: SpendCapKind; capMicros: bigint; resetsAt: Date };

// The wallet row lock serialises concurrent reservations of one account; the WHERE clause is the
// overspend guard, and the CHECK constraints on wallets are the last line of defence.
const RESERVE = `
WITH wallet AS (
  UPDATE wallets SET reserved_micros = reserved_micros + $2::bigint, updated_at = now()
  WHERE account_id = $1::uuid AND balance_micros - reserved_micros >= $2::bigint
  RETURNING balance_micros, reserved_micros
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters)
  SELECT $3::uuid, $1::uuid, $4::uuid, $2::bigint, $5, $6, $7::int FROM wallet
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT $1::uuid, 'reserve', 0, wallet.balance_micros, reservation.id, 'request',
         jsonb_build_object('amountMicros', $2::bigint, 'provider', $5::text, 'model', $6::text, 'characters', $7::int)
  FROM wallet, reservation
  RETURNING id
)
SELECT wallet.balance_micros, wallet.reserved_micros FROM wallet, entry`;

// The same statement for a key with caps (keys without caps never run it). After the wallet guard
// passed, the cost is added to the key's spend row of each capped window, and the row's CHECK
// constraint (spent <= cap) refuses a window that would go over: the error rolls the whole statement
// back, wallet included. Row locks on the wallet, then the day row, then the month row, in that order
// for every request, so concurrent requests queue instead of deadlocking. Windows are UTC calendar
// days and months by the database's clock, the same for every replica.
const RESERVE_CAPPED = `
WITH windows AS (
  SELECT (now() AT TIME ZONE 'UTC')::date AS day, date_trunc('month', now() AT TIME ZONE 'UTC')::date AS month
), wallet AS (
  UPDATE wallets SET reserved_micros = reserved_micros + $2::bigint, updated_at = now()
  WHERE account_id = $1::uuid AND balance_micros - reserved_micros >= $2::bigint
  RETURNING balance_micros, reserved_micros
), spend AS (
  INSERT INTO key_spend (api_key_id, window_kind, window_start, spent_micros, cap_micros)
  SELECT $4::uuid, cap.kind, cap.start, $2::bigint, cap.micros
  FROM wallet, windows, LATERAL (VALUES ('day', windows.day, $8::bigint), ('month', windows.month, $9::bigint)) AS cap(kind, start, micros)
  WHERE cap.micros IS NOT NULL
  ON CONFLICT (api_key_id, window_kind, window_start) DO UPDATE
    SET spent_micros = key_spend.spent_micros + excluded.spent_micros, cap_micros = excluded.cap_micros
  RETURNING 1
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters, spend_day, spend_month)
  SELECT $3::uuid, $1::uuid, $4::uuid, $2::bigint, $5, $6, $7::int,
         CASE WHEN $8::bigint IS NULL THEN NULL ELSE windows.day END,
         CASE WHEN $9::bigint IS NULL THEN NULL ELSE windows.month END
  FROM wallet, windows
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT $1::uuid, 'reserve', 0, wallet.balance_micros, reservation.id, 'request',
         jsonb_build_object('amountMicros', $2::bigint, 'provider', $5::text, 'model', $6::text, 'characters', $7::int)
  FROM wallet, reservation
  RETURNING id
)
SELECT wallet.balance_micros, wallet.reserved_micros FROM wallet, entry`;

const CAP_CONSTRAINTS: Record<string, SpendCapKind> = { key_spend_daily_cap: 'daily_spend_cap', key_spend_monthly_cap: 'monthly_spend_cap' };

/** Which cap a failed capped reservation hit, from the violated constraint (pg and PGlite both name it). */
function violatedCap(error: unknown): SpendCapKind | undefined {
  const constraint = (error as { constraint?: unknown } | null)?.constraint;
  if (typeof constraint === 'string' && constraint in CAP_CONSTRAINTS) return CAP_CONSTRAINTS[constraint];
  const message = error instanceof Error ? error.message : '';
  return Object.entries(CAP_CONSTRAINTS).find(([name]) => message.includes(`"${name}"`))?.[1];
}

/** Whether a reservation must check the key's spend caps (then it runs alone, see reserve-batch.ts). */
export function checksSpendCaps(input: ReserveCreditInput): boolean {
  const daily = input.dailySpendCapMicros ?? null;
  const monthly = input.monthlySpendCapMicros ?? null;
  return !(input.apiKeyId === null || (daily === null && monthly === null) || input.amountMicros === 0n);
}

/** One reservation, one statement (no batching). */
export async function reserveCreditAlone(sql: SqlClient, input: ReserveCreditInput): Promise<ReserveCreditResult> {
  if (input.amountMicros < 0n) throw new RangeError('a reservation cannot be negative');
  const values = [input.accountId, input.amountMicros, input.reservationId, input.apiKeyId, input.provider, input.model, input.characters];
  const daily = input.dailySpendCapMicros ?? null;
  const monthly = input.monthlySpendCapMicros ?? null;
  let rows: Array<{ balance_micros: unknown; reserved_micros: unknown }>;
  // Free requests (the local voice) add no spend, so no cap can refuse them, even one lowered below
  // what the key already spent.
  if (!checksSpendCaps(input)) {
    rows = await sql.query(RESERVE, values, 'ledger_reserve');
  } else {
    try {
      rows = await sql.query(RESERVE_CAPPED, [...values, daily, monthly], 'ledger_reserve_capped');
    } catch (error) {
      const cap = violatedCap(error);
      if (!cap) throw error;
      const resets = spendWindowResets(new Date());
      return { ok: false, reason: cap, capMicros: (cap === 'daily_spend_cap' ? daily : monthly)!, resetsAt: resets[cap] };
    }
  }
  const row = rows[0];
  if (!row) return { ok: false, reason: 'insufficient_credit' };
  return { ok: true, balanceMicros: toMicros(row.balance_micros), reservedMicros: toMicros(row.reserved_micros) };
}

