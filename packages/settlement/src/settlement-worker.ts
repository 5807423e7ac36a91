// The worker app's consumer: applies settlement jobs to the ledger. A job carries a batch of
// settlements (or one, from an older producer); the commits of every job running at once are written
// together (settlement-applier.ts). A job delivered twice (a crash after the write, a stalled job)
// finds its reservations already settled and succeeds without effect.
// A job that fails (the database is down) is retried with capped backoff (settlement-job-options.ts).
import type { SqlClient } from '@voice-router/ledger';
import { createSettlementApplier, DEFAULT_SETTLEMENT_PARTITIONS } from './settlement-applier.js';
import { createLogThrottle } from './log-throttle.js';
import { loadBullmq } from './load-redis-libraries.js';
import { createWorkerClient, SETTLEMENT_QUEUE, withTimeout } from './redis-connection.js';
import { settlementBackoffStrategy } from './settlement-job-options.js';
import { settlementsOf, silentLogger, type QueuedSettlement, type SettlementLogger } from './settler.js';

/**
 * Jobs one worker runs at once. Their commits are written together (settlement-applier.ts), so this
 * bounds how many settlements can gather into one statement: with 50 a backlog of small jobs (5
 * settlements each, the data plane's window at ~1,000 requests/s) made batches of ~110, with 200 of
 * 200 (MAX_COMMIT_BATCH), and drained about a quarter faster (16,100-19,600 against 12,400-15,900
 * commits/s on one machine) for less worker and database CPU per commit.
 */
export const DEFAULT_SETTLEMENT_CONCURRENCY = 200;

export interface SettlementWorkerOptions {
  redisUrl: string;
  prefix: string;
  sql: SqlClient;
  concurrency?: number;
  /** Partitions by account, written at once (settlement-applier.ts); default DEFAULT_SETTLEMENT_PARTITIONS. */
  partitions?: number;
  logger?: SettlementLogger;
  /** Told each job's action and outcome once it is applied (metrics). */
  onApplied?(action: 'commit' | 'void', outcome: string): void;
}

export interface SettlementWorker {
  /**
   * Waits (up to `timeoutMs`, default 5 s) for running jobs, then disconnects. A job cut off is not
   * lost: BullMQ hands it to another worker once its lock expires.
   */
  close(options?: { timeoutMs?: number }): Promise<void>;
  /** Counts of outcomes since start, for logs and benchmarks. */
  counts(): Record<string, number>;
}

export async function startSettlementWorker(options: SettlementWorkerOptions): Promise<SettlementWorker> {
  const logger = options.logger ?? silentLogger;
  const counts: Record<string, number> = {};
  const applier = createSettlementApplier(options.sql, 'worker', undefined, options.partitions ?? DEFAULT_SETTLEMENT_PARTITIONS);
  const { Worker } = loadBullmq();
  const client = createWorkerClient(options.redisUrl);
  const worker = new Worker<QueuedSettlement>(
    SETTLEMENT_QUEUE,
    async (job) => {
      // Every settlement of the job must be durable before it completes; if one fails the job is
      // retried whole, and those already written come back as already_settled.
      const settlements = settlementsOf(job.data);
      const outcomes = await Promise.all(settlements.map((settlement) => applier.apply(settlement)));
      settlements.forEach((settlement, index) => {
        const key = `${settlement.action}:${outcomes[index]}`;
        counts[key] = (counts[key] ?? 0) + 1;
        options.onApplied?.(settlement.action, outcomes[index]!);
      });
      return outcomes.length === 1 ? outcomes[0] : { settled: outcomes.filter((outcome) => outcome === 'settled').length, of: outcomes.length };
    },
    {
      connection: client,
      prefix: options.prefix,
      concurrency: options.concurrency ?? DEFAULT_SETTLEMENT_CONCURRENCY,
      settings: { backoffStrategy: settlementBackoffStrategy },
    },
  );
  // During a database outage every job fails each attempt: one line per job is plenty.
  worker.on('failed', (job, error) => {
    if (job && job.attemptsMade > 1 && job.attemptsMade < (job.opts.attempts ?? 1)) return;
    logger.warn(job && job.attemptsMade >= (job.opts.attempts ?? 1) ? 'settlement job failed for good; the reaper will apply it' : 'settlement job failed; it will be retried', {
      jobId: job?.id, attemptsMade: job?.attemptsMade, error,
    });
  });
  const shouldLog = createLogThrottle();
  worker.on('error', (error) => shouldLog(error) && logger.error('settlement worker error', { error }));
  try {
    await worker.waitUntilReady();
  } catch (error) {
    await withTimeout(worker.close(true), 2_000, 'closing a settlement worker that did not start').catch(() => undefined);
    client.disconnect();
    throw error;
  }
  return {
    async close(closeOptions) {
      // With Redis gone, a graceful close waits for it forever; force it after the bound.
      await withTimeout(worker.close(), closeOptions?.timeoutMs ?? 5_000, 'closing the settlement worker').catch(async (error) => {
        logger.warn('settlement worker did not close in time; forcing it', { error });
        await withTimeout(worker.close(true), 2_000, 'forcing the settlement worker closed').catch(() => undefined);
      });
      client.disconnect();
    },
    counts: () => ({ ...counts }),
  };
}
