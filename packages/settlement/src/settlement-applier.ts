// Applies settlement decisions to the ledger in batches: the commits handed over within a couple of
// milliseconds (from many BullMQ jobs, or from the in-process settler) go to the database together, up
// to MAX_COMMIT_BATCH per transaction, instead of one statement each. Voids are rarer and touch the
// key's spend windows too, so each still runs on its own. Requests paid from allowances (commits and
// voids alike) gather the same way and are written by settleAllowanceSpends. Every caller learns its own outcome; a
// failed batch fails each of its callers, who retry as they would a single settlement (the ledger
// applies each decision at most once, so a retry never charges twice).
import { commitReservations, MAX_COMMIT_BATCH, settleAllowanceSpends, type SettlementOutcome, type SqlClient } from '@voice-router/ledger';
import { allowanceSpend, applySettlement } from './apply-settlement.js';
import type { SettlementJob } from './settler.js';

export interface SettlementApplier {
  apply(job: SettlementJob): Promise<SettlementOutcome>;
}

interface Waiting {
  job: SettlementJob;
  resolve(outcome: SettlementOutcome): void;
  reject(error: unknown): void;
}

/**
 * Commits gather this long before they are written (or until MAX_COMMIT_BATCH are waiting). Settlement
 * is off the request path, so a few milliseconds buy batches of many instead of a handful per turn.
 */
export const COMMIT_GATHER_MS = 2;

/** Batches written at once by one applier on PostgreSQL (see below). */
export const MAX_BATCHES_IN_FLIGHT = 3;

export function createSettlementApplier(sql: SqlClient, source: string, gatherMs = COMMIT_GATHER_MS): SettlementApplier {
  let pending: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  // At most MAX_BATCHES_IN_FLIGHT batches are written at once (one on a serial database such as PGlite,
  // where a second would only queue behind the first); meanwhile the next batch gathers. A statement has
  // a fixed cost (planning, locks, a commit) of several hundred microseconds of database CPU, so under
  // load this turns many small batches into a few large ones; when idle, a commit still waits only
  // COMMIT_GATHER_MS.
  let inFlight = 0;
  const held = () => inFlight >= (sql.serial === true ? 1 : MAX_BATCHES_IN_FLIGHT);

  async function flush() {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending.splice(0, MAX_COMMIT_BATCH);
    if (batch.length === 0) return;
    inFlight += 1;
    try {
      const commits = batch.filter(({ job }) => !job.allowance);
      const spends = batch.flatMap(({ job }) => (job.allowance ? [allowanceSpend(job, job.allowance, source)] : []));
      const outcomes = commits.length > 0
        ? await commitReservations(sql, commits.map(({ job }) => ({ reservationId: job.reservationId, source, metadata: job.metadata })))
        : new Map<string, SettlementOutcome>();
      if (spends.length > 0) {
        const written = await settleAllowanceSpends(sql, spends);
        for (const [id, outcome] of written) outcomes.set(id, outcome);
      }
      // The same reservation twice in one batch (a redelivered job): the first caller settled it.
      const answered = new Set<string>();
      for (const waiting of batch) {
        const id = waiting.job.reservationId.toLowerCase();
        const outcome = outcomes.get(id) ?? 'not_found';
        waiting.resolve(answered.has(id) && outcome === 'settled' ? 'already_settled' : outcome);
        answered.add(id);
      }
    } catch (error) {
      for (const waiting of batch) waiting.reject(error);
    } finally {
      inFlight -= 1;
      // What gathered while the batch ran has waited at least as long as a gather: write it now.
      if (pending.length > 0 && !held()) void flush();
    }
  }

  return {
    apply(job) {
      if (job.action !== 'commit' && !job.allowance) return applySettlement(sql, job, source);
      return new Promise<SettlementOutcome>((resolve, reject) => {
        pending.push({ job, resolve, reject });
        if (held()) return;
        if (pending.length >= MAX_COMMIT_BATCH) void flush();
        else {
          timer ??= setTimeout(() => {
            timer = undefined;
            if (!held()) void flush();
          }, gatherMs);
        }
      });
    },
  };
}
