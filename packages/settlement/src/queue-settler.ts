// Scaled-out mode: each settlement becomes a BullMQ job whose id is derived from the reservation, so
// a retry of the enqueue never creates a second job; the worker app applies them. If Redis refuses
// the job, the settler falls back to writing the ledger directly.
import { Queue } from 'bullmq';
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { createPendingWork } from './pending-work.js';
import { silentLogger, type SettlementJob, type SettlementLogger, type Settler } from './settler.js';
import { redisConnection, SETTLEMENT_QUEUE } from './redis-connection.js';

export interface QueueSettlerOptions {
  redisUrl: string;
  prefix: string;
  /** Used only when Redis is unavailable. */
  fallbackSql?: SqlClient;
  logger?: SettlementLogger;
}

export function settlementJobId(job: SettlementJob): string {
  // BullMQ ids must not contain ':'; one id per reservation means commit and void cannot both be queued.
  return `settle-${job.reservationId}`;
}

export function createQueueSettler(options: QueueSettlerOptions): Settler {
  const logger = options.logger ?? silentLogger;
  const queue = new Queue<SettlementJob>(SETTLEMENT_QUEUE, {
    connection: redisConnection(options.redisUrl),
    prefix: options.prefix,
    defaultJobOptions: {
      attempts: 20,
      backoff: { type: 'exponential', delay: 100 },
      removeOnComplete: true,
      removeOnFail: 10_000,
    },
  });
  queue.on('error', (error) => logger.warn('settlement queue error', { error }));
  const pending = createPendingWork();
  // Settlements decided in the same turn of the event loop travel to Redis in one addBulk round trip.
  let batch: SettlementJob[] = [];

  async function applyDirectly(job: SettlementJob, error: unknown): Promise<void> {
    logger.warn('could not enqueue settlement; applying it directly', { reservationId: job.reservationId, error });
    if (!options.fallbackSql) return;
    await applySettlement(options.fallbackSql, job, 'request').catch((fallbackError) =>
      logger.error('direct settlement failed too; leaving it to the reaper', { reservationId: job.reservationId, error: fallbackError }),
    );
  }

  async function flush(jobs: SettlementJob[]): Promise<void> {
    try {
      await queue.addBulk(jobs.map((job) => ({ name: job.action, data: job, opts: { jobId: settlementJobId(job) } })));
    } catch (error) {
      await Promise.all(jobs.map((job) => applyDirectly(job, error)));
    }
  }

  function enqueue(job: SettlementJob): void {
    batch.push(job);
    if (batch.length > 1) return;
    pending.track(
      new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        const jobs = batch;
        batch = [];
        return flush(jobs);
      }),
    );
  }

  return {
    settle(job) {
      enqueue(job);
    },
    drain: () => pending.drain(),
    async close() {
      await this.drain();
      await queue.close();
    },
  };
}
