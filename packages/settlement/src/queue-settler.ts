// Scaled-out mode: each settlement becomes a BullMQ job whose id is derived from the reservation, so
// a retry of the enqueue never creates a second job; the worker app applies them. Redis commands
// fail fast: a settlement that cannot be enqueued is written to the ledger directly, and while both
// are down it is retried (enqueue, then database) with capped backoff, held in a bounded backlog.
import { Queue } from 'bullmq';
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { createLogThrottle } from './log-throttle.js';
import { createProducerClient, SETTLEMENT_QUEUE, withTimeout } from './redis-connection.js';
import { retryWithin } from './retry.js';
import { createSettlementBacklog } from './settlement-backlog.js';
import { settlementJobOptions } from './settlement-job-options.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_MAX_PENDING, DEFAULT_RETRY, silentLogger, type SettlementJob, type SettlementLogger, type Settler,
  type SettlerLimits,
} from './settler.js';

export interface QueueSettlerOptions extends SettlerLimits {
  redisUrl: string;
  prefix: string;
  /** Used only when Redis is unavailable. */
  fallbackSql?: SqlClient;
  logger?: SettlementLogger;
  /** An enqueue that has not answered by then counts as failed (default 3 s). */
  enqueueTimeoutMs?: number;
}

export function settlementJobId(job: SettlementJob): string {
  // BullMQ ids must not contain ':'; one id per reservation means commit and void cannot both be queued.
  return `settle-${job.reservationId}`;
}

const toBulkEntry = (job: SettlementJob) => ({ name: job.action, data: job, opts: { jobId: settlementJobId(job) } });

export function createQueueSettler(options: QueueSettlerOptions): Settler {
  const logger = options.logger ?? silentLogger;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const enqueueTimeoutMs = options.enqueueTimeoutMs ?? 3_000;
  const client = createProducerClient(options.redisUrl);
  const queue = new Queue<SettlementJob>(SETTLEMENT_QUEUE, { connection: client, prefix: options.prefix, defaultJobOptions: settlementJobOptions });
  const shouldLog = createLogThrottle();
  queue.on('error', (error) => shouldLog(error) && logger.warn('settlement queue error', { error }));
  const backlog = createSettlementBacklog({ maxPending: options.maxPending ?? DEFAULT_MAX_PENDING, logger });
  let closed = false;

  // Settlements decided in the same turn of the event loop travel to Redis in one addBulk round trip.
  let batch: { jobs: SettlementJob[]; sent: Promise<void> } | undefined;
  function enqueueBatched(job: SettlementJob): Promise<void> {
    if (!batch) {
      const current: { jobs: SettlementJob[]; sent: Promise<void> } = { jobs: [], sent: Promise.resolve() };
      current.sent = new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
        batch = undefined;
        await withTimeout(queue.addBulk(current.jobs.map(toBulkEntry)), enqueueTimeoutMs, 'enqueueing settlements');
      });
      batch = current;
    }
    batch.jobs.push(job);
    return batch.sent;
  }

  const enqueueOne = (job: SettlementJob) =>
    withTimeout(queue.add(job.action, job, { jobId: settlementJobId(job) }), enqueueTimeoutMs, 'enqueueing a settlement');

  async function settleWithoutRedis(job: SettlementJob, cause: unknown, signal: AbortSignal): Promise<void> {
    logger.warn('could not enqueue settlement; applying it directly', { reservationId: job.reservationId, error: cause });
    try {
      await retryWithin(
        async (round) => {
          // From the second round on, Redis may be back: the queue takes the job and the worker applies it.
          if (round > 1 || !options.fallbackSql) {
            try {
              await enqueueOne(job);
              return;
            } catch (error) {
              if (!options.fallbackSql) throw error;
            }
          }
          await applySettlement(options.fallbackSql, job, 'request');
        },
        retry,
        signal,
        (error, round) => {
          if (round === 1) logger.warn('direct settlement failed too; retrying both', { reservationId: job.reservationId, error });
        },
      );
    } catch (error) {
      logger.error('settlement neither enqueued nor written; leaving it to the reaper', {
        reservationId: job.reservationId, action: job.action, error,
      });
    }
  }

  return {
    settle(job) {
      if (closed) {
        logger.error('settlement after close; leaving it to the reaper', { reservationId: job.reservationId, action: job.action });
        return;
      }
      backlog.add(job, async (signal) => {
        try {
          await enqueueBatched(job);
        } catch (error) {
          await settleWithoutRedis(job, error, signal);
        }
      });
    },
    inFlight: async (reservationIds) => backlog.inFlight(reservationIds),
    backlog: () => ({ pending: backlog.size, oldestAgeMs: backlog.oldestAgeMs() }),
    dependenciesReachable: () => withTimeout(client.ping(), 2_000, 'pinging Redis').then(() => true, () => false),
    drain: (drainOptions) => backlog.drain(drainOptions?.timeoutMs ?? drainTimeoutMs),
    async close(closeOptions) {
      const result = await backlog.drain(closeOptions?.timeoutMs ?? drainTimeoutMs);
      closed = true;
      backlog.stop();
      await withTimeout(queue.close(), 2_000, 'closing the settlement queue').catch(() => undefined);
      client.disconnect();
      return result;
    },
  };
}
