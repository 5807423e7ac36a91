// The worker app's consumer: applies settlement jobs to the ledger. A job delivered twice (a crash
// after the write, a stalled job) finds the reservation already settled and succeeds without effect.
import { Worker } from 'bullmq';
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { redisConnection, SETTLEMENT_QUEUE } from './redis-connection.js';
import { silentLogger, type SettlementJob, type SettlementLogger } from './settler.js';

export interface SettlementWorkerOptions {
  redisUrl: string;
  prefix: string;
  sql: SqlClient;
  concurrency?: number;
  logger?: SettlementLogger;
}

export interface SettlementWorker {
  close(): Promise<void>;
  /** Counts of outcomes since start, for logs and benchmarks. */
  counts(): Record<string, number>;
}

export async function startSettlementWorker(options: SettlementWorkerOptions): Promise<SettlementWorker> {
  const logger = options.logger ?? silentLogger;
  const counts: Record<string, number> = {};
  const worker = new Worker<SettlementJob>(
    SETTLEMENT_QUEUE,
    async (job) => {
      const outcome = await applySettlement(options.sql, job.data, 'worker');
      counts[`${job.data.action}:${outcome}`] = (counts[`${job.data.action}:${outcome}`] ?? 0) + 1;
      return outcome;
    },
    { connection: redisConnection(options.redisUrl), prefix: options.prefix, concurrency: options.concurrency ?? 50 },
  );
  worker.on('failed', (job, error) => logger.warn('settlement job failed; it will be retried', { jobId: job?.id, error }));
  worker.on('error', (error) => logger.error('settlement worker error', { error }));
  await worker.waitUntilReady();
  return {
    close: () => worker.close(),
    counts: () => ({ ...counts }),
  };
}
