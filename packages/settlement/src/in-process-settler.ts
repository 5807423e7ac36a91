// Embedded mode (and PostgreSQL without Redis): settle straight into the database, off the request
// path, retrying with capped backoff long enough to outlast a database restart.
import type { SqlClient } from '@voice-router/ledger';
import { createSettlementApplier } from './settlement-applier.js';
import { retryWithin } from './retry.js';
import { createSettlementBacklog } from './settlement-backlog.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_MAX_PENDING, DEFAULT_RETRY, silentLogger, type SettlementLogger, type Settler, type SettlerLimits,
} from './settler.js';

export interface InProcessSettlerOptions extends SettlerLimits {
  sql: SqlClient;
  logger?: SettlementLogger;
}

export function createInProcessSettler(options: InProcessSettlerOptions): Settler {
  const logger = options.logger ?? silentLogger;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const backlog = createSettlementBacklog({ maxPending: options.maxPending ?? DEFAULT_MAX_PENDING, logger });
  // Commits decided within a couple of milliseconds are written together (one transaction, not one each).
  const applier = createSettlementApplier(options.sql, 'request');
  let closed = false;

  return {
    // Nothing but the database, which readiness checks on its own.
    dependenciesReachable: async () => true,
    settle(job) {
      if (closed) {
        logger.error('settlement after close; leaving it to the reaper', { reservationId: job.reservationId, action: job.action });
        return;
      }
      backlog.add(job, async (signal) => {
        try {
          await retryWithin(() => applier.apply(job), retry, signal, (error, round) => {
            if (round === 1) logger.warn('settlement failed; retrying', { reservationId: job.reservationId, action: job.action, error });
          });
        } catch (error) {
          logger.error('settlement not written; leaving it to the reaper', { reservationId: job.reservationId, action: job.action, error });
        }
      });
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
