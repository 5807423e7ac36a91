// Scaled-out mode: tells the reaper which stale reservations still have a settlement in BullMQ (in a
// job in any state but completed), so a queued commit always beats the reaper, however long the
// workers are down. A job that used up its retries is applied here instead.
//
// Jobs carry batches of settlements, so a reservation cannot be looked up by job id: the guard reads
// every unfinished job in one atomic snapshot (BullMQ's getJobs runs one Lua script over all the
// states, so a job moving between states cannot slip between two reads). That costs one pass over the
// queue per reaper round, and only when stale reservations exist; a backlog of 100,000 settlements is
// about 1,000 jobs.
import type { SqlClient } from '@voice-router/ledger';
import { applySettlement } from './apply-settlement.js';
import { loadBullmq } from './load-redis-libraries.js';
import { createProducerClient, SETTLEMENT_QUEUE, withTimeout } from './redis-connection.js';
import { settlementsOf, silentLogger, type QueuedSettlement, type SettlementGuard, type SettlementLogger } from './settler.js';

export interface QueuedSettlementGuardOptions {
  redisUrl: string;
  prefix: string;
  /** Where failed jobs' decisions are written. */
  sql: SqlClient;
  logger?: SettlementLogger;
}

const LOOKUP_TIMEOUT_MS = 10_000;
const UNFINISHED = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

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
  const queue = new (loadBullmq().Queue)<QueuedSettlement>(SETTLEMENT_QUEUE, { connection: client, prefix: options.prefix });
  queue.on('error', () => undefined); // a lookup that fails rejects on its own; the reaper logs it

  /** The worker gave up on these (a long database outage): their decisions still stand, so apply them now. */
  async function applyFailed(wanted: ReadonlySet<string>): Promise<void> {
    const failed = await withTimeout(queue.getJobs(['failed']), LOOKUP_TIMEOUT_MS, 'reading failed settlement jobs');
    for (const job of failed) {
      const settlements = settlementsOf(job.data);
      if (!settlements.some((settlement) => wanted.has(settlement.reservationId) || (settlement.allowance && wanted.has(settlement.allowance.id)))) continue;
      try {
        const outcomes = [];
        for (const settlement of settlements) outcomes.push(await applySettlement(options.sql, settlement, 'reaper'));
        logger.warn('applied a settlement job that had exhausted its retries', {
          jobId: job.id, reservations: settlements.map((settlement) => `${settlement.action}:${settlement.reservationId}`), outcomes,
        });
        await job.remove().catch(() => undefined);
      } catch (error) {
        logger.error('could not apply a failed settlement job; will try again next round', { jobId: job.id, error });
      }
    }
  }

  return {
    async inFlight(reservationIds) {
      const wanted = new Set(reservationIds);
      const jobs = await withTimeout(queue.getJobs([...UNFINISHED]), LOOKUP_TIMEOUT_MS, 'reading queued settlement jobs');
      const spared = new Set<string>();
      for (const job of jobs) {
        for (const settlement of settlementsOf(job.data)) {
          if (wanted.has(settlement.reservationId)) spared.add(settlement.reservationId);
          // A request paid from an allowance keeps the allowance alive until it is written.
          if (settlement.allowance && wanted.has(settlement.allowance.id)) spared.add(settlement.allowance.id);
        }
      }
      if (spared.size > 0) await applyFailed(spared);
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
