// Scaled-out mode: tells the reaper which stale reservations still have a settlement job in BullMQ
// (`settle-<reservationId>` in any state but completed), so a queued commit always beats the reaper,
// however long the workers are down. A job that used up its retries is applied here instead.
import { Queue } from 'bullmq';
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { createProducerClient, SETTLEMENT_QUEUE, withTimeout } from './redis-connection.js';
import { settlementJobId } from './queue-settler.js';
import { silentLogger, type SettlementGuard, type SettlementJob, type SettlementLogger } from './settler.js';

export interface QueuedSettlementGuardOptions {
  redisUrl: string;
  prefix: string;
  /** Where failed jobs' decisions are written. */
  sql: SqlClient;
  logger?: SettlementLogger;
}

const LOOKUP_TIMEOUT_MS = 5_000;

export interface SettlementQueueCounts {
  waiting: number;
  delayed: number;
  active: number;
  failed: number;
  /** Age of the oldest job waiting or delayed (0 when none). */
  oldestAgeMs: number;
}

export interface QueuedSettlementGuard extends SettlementGuard {
  /** The queue's depth and lag (metrics); rejects when Redis does not answer in time. */
  queueCounts(): Promise<SettlementQueueCounts>;
  close(): Promise<void>;
}

export function createQueuedSettlementGuard(options: QueuedSettlementGuardOptions): QueuedSettlementGuard {
  const logger = options.logger ?? silentLogger;
  const client = createProducerClient(options.redisUrl);
  const queue = new Queue<SettlementJob>(SETTLEMENT_QUEUE, { connection: client, prefix: options.prefix });
  queue.on('error', () => undefined); // a lookup that fails rejects on its own; the reaper logs it

  async function check(reservationId: string): Promise<boolean> {
    const job = await queue.getJob(settlementJobId({ action: 'commit', reservationId }));
    if (!job) return false;
    const state = await job.getState();
    if (state === 'completed' || state === 'unknown') return false;
    if (state !== 'failed') return true;
    // The worker gave up on it (a long database outage): the decision still stands, so apply it now.
    try {
      const outcome = await applySettlement(options.sql, job.data, 'reaper');
      logger.warn('applied a settlement job that had exhausted its retries', { reservationId, action: job.data.action, outcome });
      await job.remove().catch(() => undefined);
    } catch (error) {
      logger.error('could not apply a failed settlement job; will try again next round', { reservationId, error });
    }
    return true;
  }

  return {
    async inFlight(reservationIds) {
      const spared = new Set<string>();
      // Small parallel batches: one round trip per id, bounded so a big backlog does not flood Redis.
      for (let index = 0; index < reservationIds.length; index += 50) {
        const chunk = reservationIds.slice(index, index + 50);
        const found = await withTimeout(Promise.all(chunk.map(check)), LOOKUP_TIMEOUT_MS, 'looking up settlement jobs');
        chunk.forEach((id, position) => found[position] && spared.add(id));
      }
      return spared;
    },
    async queueCounts() {
      const read = async () => {
        const [counts, oldestWaiting, oldestDelayed] = await Promise.all([
          queue.getJobCounts('wait', 'delayed', 'active', 'failed'),
          queue.getJobs(['wait'], 0, 0, true),
          queue.getJobs(['delayed'], 0, 0, true),
        ]);
        const timestamps = [...oldestWaiting, ...oldestDelayed].flatMap((job) => (job ? [job.timestamp] : []));
        const now = Date.now();
        return {
          waiting: counts.wait ?? 0,
          delayed: counts.delayed ?? 0,
          active: counts.active ?? 0,
          failed: counts.failed ?? 0,
          oldestAgeMs: timestamps.length ? Math.max(0, now - Math.min(...timestamps)) : 0,
        };
      };
      return withTimeout(read(), LOOKUP_TIMEOUT_MS, 'reading the settlement queue');
    },
    async close() {
      await withTimeout(queue.close(), 2_000, 'closing the settlement queue').catch(() => undefined);
      client.disconnect();
    },
  };
}
