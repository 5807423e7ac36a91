// Reserves a request's cost in one atomic statement: only if spendable (balance − reserved) covers it.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';

export interface ReserveCreditInput {
  reservationId: string;
  accountId: string;
  apiKeyId: string | null;
  amountMicros: bigint;
  provider: string;
  model: string;
  characters: number;
}

export type ReserveCreditResult =
  | { ok: true; balanceMicros: bigint; reservedMicros: bigint }
  | { ok: false; reason: 'insufficient_credit' };

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

export async function reserveCredit(sql: SqlClient, input: ReserveCreditInput): Promise<ReserveCreditResult> {
  if (input.amountMicros < 0n) throw new RangeError('a reservation cannot be negative');
  const rows = await sql.query<{ balance_micros: unknown; reserved_micros: unknown }>(
    RESERVE,
    [input.accountId, input.amountMicros, input.reservationId, input.apiKeyId, input.provider, input.model, input.characters],
    'ledger_reserve',
  );
  const row = rows[0];
  if (!row) return { ok: false, reason: 'insufficient_credit' };
  return { ok: true, balanceMicros: toMicros(row.balance_micros), reservedMicros: toMicros(row.reserved_micros) };
}
