// How settlement jobs are retried by the worker: capped exponential backoff, long enough to outlast
// a PostgreSQL restart many times over (at least 6.5 minutes, about 10 on average). A job that still
// fails stays in the failed set, and the reaper applies its decision rather than voiding it.
import type { BackoffStrategy, JobsOptions } from 'bullmq';
import { backoffDelay } from './retry.js';

export const SETTLEMENT_BACKOFF = 'settlement-capped-exponential';

const backoff = { initialDelayMs: 100, maxDelayMs: 5_000, windowMs: Number.POSITIVE_INFINITY };

export const settlementJobOptions: JobsOptions = {
  attempts: 160,
  backoff: { type: SETTLEMENT_BACKOFF },
  removeOnComplete: true,
  removeOnFail: 10_000,
};

/** Given to every settlement worker (BullMQ asks the worker, not the queue, for custom strategies). */
export const settlementBackoffStrategy: BackoffStrategy = (attemptsMade, type) => {
  if (type !== SETTLEMENT_BACKOFF) throw new Error(`unknown backoff strategy ${type}`);
  return backoffDelay(backoff, attemptsMade);
};
