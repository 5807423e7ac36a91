// How many reservations are still pending and how old the oldest is: what an operator watches to see
// held credit pile up (a stuck worker, a reaper that cannot run). One indexed aggregate.
import type { SqlClient } from '../sql-client.js';

export interface OpenReservations {
  open: number;
  /** Seconds since the oldest pending reservation was made; 0 when none is pending. */
  oldestAgeSeconds: number;
}

export async function openReservations(sql: SqlClient): Promise<OpenReservations> {
  const [row] = await sql.query<{ open: number; oldest: number | string | null }>(
    `SELECT count(*)::int AS open, extract(epoch FROM now() - min(created_at))::float8 AS oldest
       FROM reservations WHERE state = 'pending'`,
  );
  return { open: row?.open ?? 0, oldestAgeSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
}
