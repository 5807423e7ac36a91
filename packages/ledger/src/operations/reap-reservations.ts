// Settles reservations whose request process died: anything still pending past the bound is voided
// (the customer is not charged for audio we cannot prove was delivered).
import type { SqlClient } from '../sql-client.js';
import { voidReservation } from './settle-reservation.js';

export interface ReapInput {
  olderThanMs: number;
  limit?: number;
}

export async function reapReservations(sql: SqlClient, input: ReapInput): Promise<number> {
  const rows = await sql.query<{ id: string }>(
    `SELECT id FROM reservations
     WHERE state = 'pending' AND created_at < now() - make_interval(secs => $1::double precision / 1000)
     ORDER BY created_at LIMIT $2::int`,
    [input.olderThanMs, input.limit ?? 1000],
  );
  let reaped = 0;
  for (const row of rows) {
    const outcome = await voidReservation(sql, {
      reservationId: row.id,
      source: 'reaper',
      errorCode: 'reservation_expired',
      metadata: { reason: 'pending past the reaper bound' },
    });
    if (outcome === 'settled') reaped += 1;
  }
  return reaped;
}
