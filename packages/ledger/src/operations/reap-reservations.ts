// Settles reservations whose request process died: anything still pending past the bound is voided
// (the customer is not charged for audio we cannot prove was delivered). An allowance gets the bound
// plus ALLOWANCE_MAX_AGE_MS (its holder pays requests from it for that long); voiding it returns what
// it still holds.
import type { SqlClient } from '../sql-client.js';
import { ALLOWANCE_MAX_AGE_MS, voidAllowance } from './allowances.js';
import { voidReservation } from './settle-reservation.js';

export interface ReapInput {
  olderThanMs: number;
  limit?: number;
  /**
   * Of the stale reservations found, those to leave alone (their settlement is still on its way).
   * If it throws, nothing is voided.
   */
  spare?: (reservationIds: string[]) => Promise<ReadonlySet<string>>;
}

export async function reapReservations(sql: SqlClient, input: ReapInput): Promise<number> {
  const rows = await sql.query<{ id: string; kind: string; account_id: string }>(
    `SELECT id, kind, account_id FROM reservations
     WHERE state = 'pending' AND created_at < now() - make_interval(secs => $1::double precision / 1000)
       AND (kind = 'request' OR created_at < now() - make_interval(secs => ($1::double precision + $3::double precision) / 1000))
     ORDER BY created_at LIMIT $2::int`,
    [input.olderThanMs, input.limit ?? 1000, ALLOWANCE_MAX_AGE_MS],
  );
  const spared = input.spare && rows.length > 0 ? await input.spare(rows.map((row) => row.id)) : new Set<string>();
  let reaped = 0;
  for (const row of rows) {
    if (spared.has(row.id)) continue;
    const outcome = row.kind === 'allowance'
      ? await voidAllowance(sql, { allowanceId: row.id, accountId: row.account_id, errorCode: 'reservation_expired' })
      : await voidReservation(sql, {
        reservationId: row.id, source: 'reaper', errorCode: 'reservation_expired', metadata: { reason: 'pending past the reaper bound' },
      });
    if (outcome === 'settled') reaped += 1;
  }
  return reaped;
}
