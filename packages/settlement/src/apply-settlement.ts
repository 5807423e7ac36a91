// Applies one settlement job to the ledger; safe to run any number of times for the same job.
import {
  commitReservation, settleAllowanceSpends, voidReservation, type AllowancePayment, type AllowanceSpend, type SettlementOutcome, type SqlClient,
} from '@voice-router/ledger';
import type { SettlementJob } from './settler.js';

/** A settlement of a request paid from an allowance, as the ledger writes it. */
export function allowanceSpend(job: SettlementJob, payment: AllowancePayment, source: string): AllowanceSpend {
  return {
    reservationId: job.reservationId, allowanceId: payment.id, accountId: payment.accountId, apiKeyId: payment.apiKeyId,
    amountMicros: BigInt(payment.amountMicros), provider: payment.provider, model: payment.model, characters: payment.characters,
    action: job.action, errorCode: job.errorCode, source, metadata: job.metadata,
  };
}

export async function applySettlement(sql: SqlClient, job: SettlementJob, source: string): Promise<SettlementOutcome> {
  if (job.allowance) {
    const outcomes = await settleAllowanceSpends(sql, [allowanceSpend(job, job.allowance, source)]);
    return outcomes.get(job.reservationId.toLowerCase()) ?? 'not_found';
  }
  if (job.action === 'commit') return commitReservation(sql, { reservationId: job.reservationId, source, metadata: job.metadata });
  return voidReservation(sql, { reservationId: job.reservationId, source, errorCode: job.errorCode ?? 'unknown', metadata: job.metadata });
}
