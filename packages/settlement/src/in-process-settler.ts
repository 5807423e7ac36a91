// Embedded mode (and PostgreSQL without Redis): settle straight into the database, off the request
// path, retrying with capped backoff long enough to outlast a database restart.
import type { SqlClient } from '@voice-router/ledger';
import { COMMIT_GATHER_MS, createSettlementApplier } from './settlement-applier.js';
import { retryWithin } from './retry.js';
import { createSettlementBacklog } from './settlement-backlog.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_MAX_PENDING, DEFAULT_RETRY, silentLogger, type SettlementJob, type SettlementLogger, type Settler, type SettlerLimits,
} from './settler.js';

export interface InProcessSettlerOptions extends SettlerLimits {
  sql: SqlClient;
  logger?: SettlementLogger;
}

/**
 * Under a steady load, settlements are written at most once per this interval (or as soon as a full
 * batch of MAX_COMMIT_BATCH waits): in batches of what arrived meanwhile, not in as many small ones as
 * the database can take. A statement costs PGlite ~1 ms of WebAssembly whatever its size, and each
 * request ~60-90 µs more (measured: 1.1-1.5 ms for a batch of one, 230 µs a request in batches of 10,
 * 90-115 in batches of 100-200). A commit after a quiet spell still waits only COMMIT_GATHER_MS. The
 * cost: after a crash, at most this long of settlements is lost, which the reaper voids (not charged),
 * as with the queue's SETTLEMENT_BATCH_WINDOW_MS in the scaled-out mode.
 */
export const IN_PROCESS_BATCH_INTERVAL_MS = 50;

export function createInProcessSettler(options: InProcessSettlerOptions): Settler {
  const logger = options.logger ?? silentLogger;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const backlog = createSettlementBacklog({ maxPending: options.maxPending ?? DEFAULT_MAX_PENDING, logger });
  // Commits decided close together are written together (one statement, not one each).
  const applier = createSettlementApplier(options.sql, 'request', {
    gatherMs: COMMIT_GATHER_MS, intervalMs: IN_PROCESS_BATCH_INTERVAL_MS,
  });
  let closed = false;

  /** The backlog's work for every job: written, retried until the database answers or the backlog stops. */
  async function write(job: SettlementJob, signal: AbortSignal): Promise<void> {
    try {
      await retryWithin(() => applier.apply(job), retry, signal, (error, round) => {
        if (round === 1) logger.warn('settlement failed; retrying', { reservationId: job.reservationId, action: job.action, error });
      });
    } catch (error) {
      logger.error('settlement not written; leaving it to the reaper', { reservationId: job.reservationId, action: job.action, error });
    }
  }

  return {
    // Nothing but the database, which readiness checks on its own.
    dependenciesReachable: async () => true,
    settle(job) {
      if (closed) {
        logger.error('settlement after close; leaving it to the reaper', { reservationId: job.reservationId, action: job.action });
        return;
      }
      backlog.add(job, write);
    },
    inFlight: async (reservationIds) => backlog.inFlight(reservationIds),
    backlog: () => ({ pending: backlog.size, oldestAgeMs: backlog.oldestAgeMs() }),
    drain: (drainOptions) => backlog.drain(drainOptions?.timeoutMs ?? drainTimeoutMs),
    async close(closeOptions) {
      const result = await backlog.drain(closeOptions?.timeoutMs ?? drainTimeoutMs);
      closed = true;
      backlog.stop();
      return result;
    },
  };
}
