// Scaled-out mode: the settlements decided within a short window (SETTLEMENT_BATCH_WINDOW_MS, at most
// MAX_SETTLEMENTS_PER_JOB) travel to Redis as one BullMQ job, and the worker app applies them. A
// settlement enqueued twice is harmless: the ledger applies each reservation's decision once. Redis commands
// fail fast: a settlement that cannot be enqueued is written to the ledger directly, and while both
// are down it is retried (enqueue, then database) with capped backoff, held in a bounded backlog.
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { createLogThrottle } from './log-throttle.js';
import { loadBullmq } from './load-redis-libraries.js';
import { createProducerClient, SETTLEMENT_QUEUE, withTimeout } from './redis-connection.js';
import { retryWithin } from './retry.js';
import { createSettlementBacklog } from './settlement-backlog.js';
import { settlementJobOptions } from './settlement-job-options.js';
import {
  DEFAULT_DRAIN_TIMEOUT_MS, DEFAULT_MAX_PENDING, DEFAULT_RETRY, silentLogger, type SettlementBatch, type SettlementJob, type SettlementLogger, type Settler,
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
  /** How long settlements gather before they are sent as one job (default SETTLEMENT_BATCH_WINDOW_MS). */
  batchWindowMs?: number;
}

/**
 * Settlements are held this long (or until MAX_SETTLEMENTS_PER_JOB gather) before one enqueue. A crash
 * inside the window loses them like any settlement not yet durable: the reaper voids those
 * reservations (the customer is never charged for them), as before batching.
 *
 * Every job costs a fixed amount wherever it goes (the data plane's enqueue, Redis's scripts, the
 * worker's fetch and completion), and the worker writes the settlements that arrive together as one
 * statement. Against 5 ms, 20 ms measured in three of four same-run A/Bs of the benchmark's short
 * requests (scaled, 2,500–4,400 a second, a data plane of each build on one worker): 3–17 % less data-plane
 * CPU per request, 27–40 % less worker, 20–40 % less PostgreSQL, 37–40 % less Redis (the fourth: even).
 * Against 20 ms and 100, 50 ms and 200 (the worker's statement size, MAX_SPEND_BATCH) in two same-run A/Bs,
 * one in each slot (scaled, 4,800–6,000 short requests a second, so jobs of ~100 became ~200):
 * PostgreSQL 27–29 % less CPU per request, Redis 30–38 %, the worker 14 % and 30 %, the data plane 14 % and
 * even; throughput 21 % and 5 % higher. Redis's part is BullMQ's scripts, ~575 µs per job (SLOWLOG).
 */
export const SETTLEMENT_BATCH_WINDOW_MS = 50;
export const MAX_SETTLEMENTS_PER_JOB = 200;

const toJob = (settlements: SettlementJob[]) => ({ name: 'settle', data: { settlements } satisfies SettlementBatch });

export function createQueueSettler(options: QueueSettlerOptions): Settler {
  const logger = options.logger ?? silentLogger;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;
  const enqueueTimeoutMs = options.enqueueTimeoutMs ?? 3_000;
  const client = createProducerClient(options.redisUrl);
  const queue = new (loadBullmq().Queue)<SettlementBatch>(SETTLEMENT_QUEUE, { connection: client, prefix: options.prefix, defaultJobOptions: settlementJobOptions });
  const shouldLog = createLogThrottle();
  queue.on('error', (error) => shouldLog(error) && logger.warn('settlement queue error', { error }));
  const backlog = createSettlementBacklog({ maxPending: options.maxPending ?? DEFAULT_MAX_PENDING, logger });
  let closed = false;

  // Settlements decided within one window travel to Redis as one job, in one round trip.
  const batchWindowMs = options.batchWindowMs ?? SETTLEMENT_BATCH_WINDOW_MS;
  let batch: { jobs: SettlementJob[]; send(): void; sent: Promise<void> } | undefined;
  function enqueueBatched(job: SettlementJob): Promise<void> {
    if (!batch) {
      let send!: () => void;
      const go = new Promise<void>((resolve) => (send = resolve));
      const timer = setTimeout(send, batchWindowMs);
      const current: { jobs: SettlementJob[]; send(): void; sent: Promise<void> } = {
        jobs: [],
        send,
        sent: go.then(async () => {
          clearTimeout(timer);
          if (batch === current) batch = undefined;
          const { name, data } = toJob(current.jobs);
          await withTimeout(queue.add(name, data), enqueueTimeoutMs, 'enqueueing settlements');
        }),
      };
      batch = current;
    }
    const current = batch;
    current.jobs.push(job);
    if (current.jobs.length >= MAX_SETTLEMENTS_PER_JOB) {
      batch = undefined;
      current.send();
    }
    return current.sent;
  }

  const enqueueOne = (job: SettlementJob) => {
    const { name, data } = toJob([job]);
    return withTimeout(queue.add(name, data), enqueueTimeoutMs, 'enqueueing a settlement');
  };

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

  /** The backlog's work for every job: enqueued with its window's batch, else written directly. */
  async function makeDurable(job: SettlementJob, signal: AbortSignal): Promise<void> {
    try {
      await enqueueBatched(job);
    } catch (error) {
      await settleWithoutRedis(job, error, signal);
    }
  }

  return {
    settle(job) {
      if (closed) {
        logger.error('settlement after close; leaving it to the reaper', { reservationId: job.reservationId, action: job.action });
        return;
      }
      backlog.add(job, makeDurable);
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
