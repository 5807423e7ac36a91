// Applies one settlement job to the ledger; safe to run any number of times for the same job.
import { commitReservation, voidReservation, type SettlementOutcome, type SqlClient } from '@voice-router/ledger';
import type { SettlementJob } from './settler.js';

export function applySettlement(sql: SqlClient, job: SettlementJob, source: string): Promise<SettlementOutcome> {
  if (job.action === 'commit') return commitReservation(sql, { reservationId: job.reservationId, source, metadata: job.metadata });
  return voidReservation(sql, { reservationId: job.reservationId, source, errorCode: job.errorCode ?? 'unknown', metadata: job.metadata });
}
