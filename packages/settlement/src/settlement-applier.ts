// Applies settlement decisions to the ledger in batches: the commits handed over within a couple of
// milliseconds (from many BullMQ jobs, or from the in-process settler, which also spaces its batches:
// see BatchPacing) go to the database together, up to MAX_COMMIT_BATCH per transaction, instead of one
// statement each. Voids are rarer and touch the key's spend windows too, so each still runs on its own. Requests paid from allowances (commits and
// voids alike) gather the same way in a lane of their own and are written by settleAllowanceSpends.
// Every caller learns its own outcome; a failed batch fails each of its callers, who retry as they
// would a single settlement (the ledger applies each decision at most once, so a retry never charges
// twice). The worker's applier splits both lanes into partitions by account (SETTLEMENT_PARTITIONS), one
// batch in flight in each.
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

/**
 * Batches written at once by one applier, in each lane of each partition: one. A batch locks the wallets
 * it names, and batches of a busy worker name the same wallets (each of 200 commits spans most of the
 * accounts that are spending), so a second batch of the same accounts in flight only waits for the
 * first's locks, and the waiting costs PostgreSQL CPU: the waiter re-reads and re-checks every row the
 * first one changed. Measured on PostgreSQL, 20,000 commits in batches of 200 over 64 accounts: 65-71 µs
 * of database CPU a commit and 15,800-17,400 commits/s three batches at a time, 40-46 µs and
 * 19,900-22,900 commits/s one at a time; requests paid from allowances, 40 a batch over 64 wallets: 74 µs
 * a request three at a time, 48 one at a time. Meanwhile the next batch gathers, and larger batches cost
 * less per settlement. Batches of different partitions name different wallets, so they run at once
 * without waiting for each other (see DEFAULT_SETTLEMENT_PARTITIONS).
 */
export const MAX_BATCHES_IN_FLIGHT = 1;

/**
 * The worker's partitions by account. Each has its own lanes, so its batches name only its own
 * accounts' wallets: batches of different partitions never wait for each other's locks, and under a
 * backlog (a full batch waiting in each) the database writes as many at once as there are partitions;
 * under a steady load, one at a time (LaneGroup). Draining 100,000 commits over 64 accounts
 * (scenario 6, one worker, PostgreSQL and everything else on two cores): 12,338-14,571 commits/s with two
 * partitions against 9,206-10,600 with one, in alternating runs; three and four gave 13,782 and 14,041,
 * within the noise of two on two cores (bench/HISTORY.md, session 39). A host with more cores for
 * PostgreSQL can take more (SETTLEMENT_PARTITIONS). The embedded process keeps one: PGlite runs one
 * statement at a time.
 */
export const DEFAULT_SETTLEMENT_PARTITIONS = 2;

/**
 * A settlement's partition, from its account id's last four hex digits (account ids are random UUIDs,
 * so accounts spread evenly); the first one for a job that names no account (an older producer). A job
 * that named the wrong account would only make its batch wait for another partition's locks: every
 * writer locks wallets in account order, and the ledger applies each settlement at most once.
 */
export function partitionOf(accountId: string | undefined, partitions: number): number {
  if (partitions <= 1 || accountId === undefined) return 0;
  const tail = Number.parseInt(accountId.slice(-4), 16);
  return Number.isNaN(tail) ? 0 : tail % partitions;
}

/**
 * How a lane paces its batches. `gatherMs`: how long the first settlement of a batch waits for others.
 * `intervalMs`: the least time between the starts of two batches (unless a full batch is waiting), so
 * that a steady load is written in batches of what arrives in that time rather than in as many small
 * ones as the database can take; 0 keeps only the gather (and one batch in flight).
 */
export interface BatchPacing {
  gatherMs: number;
  intervalMs: number;
}

/**
 * The lanes of one kind (commits, or requests paid from allowances), one per partition. A lane starts a
 * batch while another partition's is in flight only if it has a full batch waiting: a backlog is written
 * in parallel, while a steady load still goes out one statement at a time, in batches as large as with a
 * single lane. (Two partitions each writing whatever had gathered cost PostgreSQL and the worker more CPU
 * per request under the benchmark's steady load: more statements, each smaller.)
 */
interface LaneGroup {
  inFlight: number;
  /** Each lane's schedule(), called when any lane's batch ends. */
  readonly lanes: Array<() => void>;
}

/** One queue of waiting settlements, written in batches by `write`, MAX_BATCHES_IN_FLIGHT at a time. */
function createLane(pacing: BatchPacing, group: LaneGroup, write: (batch: Waiting[]) => Promise<Map<string, SettlementOutcome>>) {
  let pending: Waiting[] = [];
  let timer: NodeJS.Timeout | undefined;
  let inFlight = 0;
  // When the oldest waiting settlement arrived, and when the last batch started (performance.now()).
  let oldestAt = 0;
  let lastStartAt = Number.NEGATIVE_INFINITY;
  const held = () => inFlight >= MAX_BATCHES_IN_FLIGHT || (group.inFlight > 0 && pending.length < MAX_COMMIT_BATCH);
  /** This lane's place in the group, where the turn after its batch starts from. */
  const place = group.lanes.push(schedule) - 1;

  /** Writes now if a full batch waits or the waiting ones are due; otherwise sets the timer for when they are. */
  function schedule() {
    if (held() || pending.length === 0) return;
    if (pending.length >= MAX_COMMIT_BATCH) return void flush();
    const dueAt = Math.max(oldestAt + pacing.gatherMs, lastStartAt + pacing.intervalMs);
    const wait = dueAt - performance.now();
    if (wait <= 0) return void flush();
    timer ??= setTimeout(() => {
      timer = undefined;
      schedule();
    }, wait);
  }

  async function flush() {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending.splice(0, MAX_COMMIT_BATCH);
    if (batch.length === 0) return;
    inFlight += 1;
    group.inFlight += 1;
    lastStartAt = performance.now();
    // Those left behind (more than a full batch was waiting) are due with the next one.
    oldestAt = lastStartAt;
    try {
      const outcomes = await write(batch);
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
      group.inFlight -= 1;
      // What gathered while the batch ran, in every lane of the group: written as soon as its pacing
      // allows. The lanes are asked in turn from the one after this one, this one last, so under a
      // steady load every partition gets its turn (asked always from the first, a third partition would
      // wait until a full batch had gathered in it).
      for (let step = 1; step <= group.lanes.length; step += 1) group.lanes[(place + step) % group.lanes.length]!();
    }
  }

  return (job: SettlementJob) => new Promise<SettlementOutcome>((resolve, reject) => {
    if (pending.length === 0) oldestAt = performance.now();
    pending.push({ job, resolve, reject });
    schedule();
  });
}

export function createSettlementApplier(
  sql: SqlClient, source: string, pacing: BatchPacing = { gatherMs: COMMIT_GATHER_MS, intervalMs: 0 }, partitions = 1,
): SettlementApplier {
  if (!Number.isInteger(partitions) || partitions < 1) throw new RangeError(`partitions must be a positive integer, not ${partitions}`);
  // Commits of reservations: one batch at a time per partition (see MAX_BATCHES_IN_FLIGHT); meanwhile
  // the next batch gathers. A statement has a fixed cost (planning, locks, a commit) of several hundred
  // microseconds of database CPU, so under load this turns many small batches into a few large ones;
  // when idle, a commit still waits only the gather. Requests paid from allowances have a lane of their
  // own, partitioned by the allowance's account.
  const commits: LaneGroup = { inFlight: 0, lanes: [] };
  const spends: LaneGroup = { inFlight: 0, lanes: [] };
  const lanes = Array.from({ length: partitions }, () => ({
    commit: createLane(pacing, commits, (batch) =>
      commitReservations(sql, batch.map(({ job }) => ({ reservationId: job.reservationId, source, metadata: job.metadata })))),
    spend: createLane(pacing, spends, (batch) =>
      settleAllowanceSpends(sql, batch.map(({ job }) => allowanceSpend(job, job.allowance!, source)))),
  }));
  return {
    apply(job) {
      if (job.allowance) return lanes[partitionOf(job.allowance.accountId, partitions)]!.spend(job);
      if (job.action !== 'commit') return applySettlement(sql, job, source);
      return lanes[partitionOf(job.accountId, partitions)]!.commit(job);
    },
  };
}
