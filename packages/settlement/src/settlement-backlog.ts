// The settlements a process holds in memory until they are durable: bounded in count, drained with a
// deadline, and asked by the reaper which reservations are still on their way.
import type { DrainResult, SettlementJob, SettlementLogger } from './settler.js';

export interface SettlementBacklog {
  /**
   * Runs `work` for the job and holds the job until it finishes. A reservation already held is not
   * added twice (the ledger would apply only the first decision anyway). Returns false when the
   * backlog is full: the job is then logged and left to the reaper.
   */
  add(job: SettlementJob, work: SettlementWork): boolean;
  inFlight(reservationIds: readonly string[]): Set<string>;
  readonly size: number;
  /** Age of the oldest job held (0 when none). */
  oldestAgeMs(now?: number): number;
  drain(timeoutMs: number): Promise<DrainResult>;
  /** Aborts the retry loops of whatever is still held (they stop at their next pause). */
  stop(): void;
}

/**
 * What makes a job durable (enqueue it, or write it). One function for every job, not a closure per job:
 * a settlement is held for its batch window (50 ms in the scaled-out mode) and more, long enough under load
 * for what it allocates to be moved to the old generation, so each job holds as little as it can.
 */
export type SettlementWork = (job: SettlementJob, signal: AbortSignal) => Promise<void>;

interface HeldJob {
  job: SettlementJob;
  done: Promise<void>;
  addedAt: number;
}

const DONE = Promise.resolve();

export function createSettlementBacklog(options: { maxPending: number; logger: SettlementLogger }): SettlementBacklog {
  // Insertion order is age order: the first entry is the oldest job held.
  const held = new Map<string, HeldJob>();
  /** How many held settlements were paid from each allowance (the reaper must not void those allowances). */
  const allowances = new Map<string, number>();
  const stopper = new AbortController();
  let refused = 0;

  /** One async function per job: the work, then the job let go of, whatever the work did. */
  async function hold(job: SettlementJob, work: SettlementWork, allowanceId: string | undefined): Promise<void> {
    try {
      await work(job, stopper.signal);
    } catch (error) {
      options.logger.error('settlement failed unexpectedly', { reservationId: job.reservationId, error });
    } finally {
      held.delete(job.reservationId);
      if (allowanceId) {
        const left = (allowances.get(allowanceId) ?? 1) - 1;
        if (left > 0) allowances.set(allowanceId, left);
        else allowances.delete(allowanceId);
      }
    }
  }

  return {
    add(job, work) {
      if (held.has(job.reservationId)) return true;
      if (held.size >= options.maxPending) {
        refused += 1;
        options.logger.error('settlement backlog is full; leaving this reservation to the reaper', {
          reservationId: job.reservationId, action: job.action, maxPending: options.maxPending, refusedSoFar: refused,
        });
        return false;
      }
      const allowanceId = job.allowance?.id;
      if (allowanceId) allowances.set(allowanceId, (allowances.get(allowanceId) ?? 0) + 1);
      // Held before the work starts, so that work ending at once still finds its entry to remove.
      const entry: HeldJob = { job, done: DONE, addedAt: Date.now() };
      held.set(job.reservationId, entry);
      entry.done = hold(job, work, allowanceId);
      return true;
    },
    inFlight(reservationIds) {
      return new Set(reservationIds.filter((id) => held.has(id) || allowances.has(id)));
    },
    get size() {
      return held.size;
    },
    oldestAgeMs(now = Date.now()) {
      for (const entry of held.values()) return Math.max(0, now - entry.addedAt);
      return 0;
    },
    async drain(timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (held.size > 0) {
        const remaining = deadline - Date.now();
        if (remaining <= 0) break;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          Promise.all([...held.values()].map((entry) => entry.done)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, remaining))),
        ]);
        clearTimeout(timer);
      }
      if (held.size === 0) return { abandoned: 0 };
      // Loud on purpose: each of these is revenue (a commit) or a hold (a void) the reaper will void.
      options.logger.error('settlements not durable within the drain bound; the reaper will void them', {
        abandoned: held.size,
        drainTimeoutMs: timeoutMs,
        reservations: [...held.values()].slice(0, 1_000).map(({ job }) => `${job.action}:${job.reservationId}`),
      });
      return { abandoned: held.size };
    },
    stop() {
      stopper.abort();
    },
  };
}
