// Scenario 6 (scaled-out mode): a backlog of settlement jobs, spread over the load accounts, drained by
// one worker process. (One wallet alone is bounded by its row lock: scenario 5.) The
// reservations are created in bulk with SQL exactly as reserveCredit leaves them (pending row, wallet
// reserved amount, a reserve ledger row), the jobs enqueued with the data plane's job shape, then the
// worker app starts and the clock runs until every reservation is committed.
import pg from 'pg';
import { auditWallet, openDatabase } from '@voice-router/ledger';
import { Queue } from 'bullmq';
import { DEFAULT_SETTLEMENT_PARTITIONS, MAX_SETTLEMENTS_PER_JOB, SETTLEMENT_BATCH_WINDOW_MS, SETTLEMENT_QUEUE, settlementJobOptions, type SettlementBatch, type SettlementJob } from '@voice-router/settlement';
import { CpuMeter, pidsByName, rssBytes } from '../infra/proc-stats.js';
import { startProcess, stopProcess } from '../infra/managed-process.js';
import { entry, type RouterSystem } from '../infra/router-system.js';
import type { LoadAccount } from '../mode-setup.js';
import { round } from '../report/stats.js';

export interface SettlementRow {
  jobs: number;
  seedSeconds: number;
  enqueueSeconds: number;
  /** Settlements per queued job: what the data plane's batching window (windowMs) holds at 1,000 requests a second. */
  settlementsPerJob?: number;
  /** Absent in reports from before session 21, when both were 5. */
  windowMs?: number;
  /** From the worker's first commit to its last (settled_at), excluding process start-up. */
  commitSeconds: number;
  commitsPerSecond: number;
  /** From spawning the worker until the last reservation was committed. */
  wallSeconds: number;
  cpuSeconds: Record<string, number>;
  accounts: number;
  /** The ledger audit of every account involved (balance = Σ deltas, reserved = Σ pending, running sums). */
  auditConsistent: boolean;
  pendingAfter: number;
  /**
   * The worker process's highest RSS while it drained the backlog (sampled every 50 ms), in MB: what the
   * worker holds with 200 jobs of 50 settlements in flight. Absent in reports from before session 38.
   */
  workerRssPeakMB?: number;
  /** The worker's partitions by account (its default). Absent in reports from before session 39, when there was one. */
  partitions?: number;
}

/** How often the worker's RSS is read while it drains. */
const RSS_SAMPLE_MS = 50;

const AMOUNT = 100;
/** The request rate whose settlement windows the queued jobs hold (see the enqueue below). */
const BACKLOG_REQUESTS_PER_SECOND = 1_000;
/** Marks this scenario's reservations, so other traffic on the same accounts is not counted. */
const MODEL = 'bench-settlement';

// One statement per batch: reservations, their reserve ledger rows, and the wallet's reserved amount,
// so every invariant holds after each batch exactly as if reserveCredit had run that many times.
const SEED = `
WITH wallet AS (
  UPDATE wallets SET reserved_micros = reserved_micros + $2::bigint * ${AMOUNT}, updated_at = now()
  WHERE account_id = $1::uuid AND balance_micros - reserved_micros >= $2::bigint * ${AMOUNT}
  RETURNING balance_micros
), reservation AS (
  INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters)
  SELECT gen_random_uuid(), $1::uuid, ${AMOUNT}, 'openai', '${MODEL}', 7 FROM wallet, generate_series(1, $2::int)
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT $1::uuid, 'reserve', 0, wallet.balance_micros, reservation.id, 'request',
         jsonb_build_object('amountMicros', ${AMOUNT}, 'provider', 'openai', 'model', '${MODEL}', 'characters', 7)
  FROM wallet, reservation
  RETURNING reservation_id
)
SELECT reservation_id AS id FROM entry`;

export async function runSettlement(
  router: RouterSystem, accounts: LoadAccount[], redisUrl: string, redisPrefix: string, jobs: number, log: (line: string) => void,
): Promise<SettlementRow> {
  const client = new pg.Client({ connectionString: router.databaseUrl });
  await client.connect();
  const url = new URL(redisUrl);
  const queue = new Queue<SettlementBatch>(SETTLEMENT_QUEUE, { connection: { host: url.hostname, port: Number(url.port || 6379) }, prefix: redisPrefix });
  try {
    let started = performance.now();
    const ids: string[] = [];
    // Each job names its reservation's account, as the data plane's do (the worker partitions by it).
    const accountOf = new Map<string, string>();
    const perAccount = Math.ceil(jobs / accounts.length);
    for (let done = 0, index = 0; done < jobs; done += perAccount, index += 1) {
      const result = await client.query<{ id: string }>(SEED, [accounts[index]!.accountId, Math.min(perAccount, jobs - done)]);
      for (const row of result.rows) {
        ids.push(row.id);
        accountOf.set(row.id, accounts[index]!.accountId);
      }
    }
    // Interleave accounts in the queue, as traffic from many customers would arrive.
    ids.sort();
    // A backlog that built up over time would have been analysed by autovacuum. Without this, the
    // planner's stale estimate of pending rows makes every commit scan the (state, created_at) index
    // over the whole backlog: a first full run drained only ~140 commits/s that way (see the report).
    await client.query('ANALYZE reservations');
    if (ids.length !== jobs) throw new Error(`seeded ${ids.length} reservations, expected ${jobs}`);
    const seedSeconds = (performance.now() - started) / 1000;

    started = performance.now();
    // The data plane's job shape: the settlements of one batching window per job. A backlog builds up
    // while the workers are away and requests keep coming; at 1,000 a second (scenario 2 runs at two to
    // four times that) a window holds this many, fewer than the MAX_SETTLEMENTS_PER_JOB a busier data plane reaches.
    const perJob = Math.min(Math.round((BACKLOG_REQUESTS_PER_SECOND * SETTLEMENT_BATCH_WINDOW_MS) / 1000), MAX_SETTLEMENTS_PER_JOB);
    for (let index = 0; index < ids.length; index += 1000) {
      const slice = ids.slice(index, index + 1000);
      const entries = [];
      for (let offset = 0; offset < slice.length; offset += perJob) {
        const settlements = slice.slice(offset, offset + perJob).map((reservationId): SettlementJob => ({
          action: 'commit', reservationId, accountId: accountOf.get(reservationId), metadata: { deliveredBytes: 4224 },
        }));
        // The same options the data plane's queue settler gives every job.
        entries.push({ name: 'settle', data: { settlements }, opts: settlementJobOptions });
      }
      await queue.addBulk(entries);
    }
    const enqueueSeconds = (performance.now() - started) / 1000;
    log(`  settlement: ${jobs} reservations seeded in ${seedSeconds.toFixed(1)} s, enqueued in ${enqueueSeconds.toFixed(1)} s`);

    started = performance.now();
    const worker = startProcess('settlement-worker', [entry('worker')], {
      DATABASE_URL: router.databaseUrl!, REDIS_URL: redisUrl, REDIS_PREFIX: redisPrefix, METRICS_PORT: '0',
    });
    const meter = new CpuMeter({ worker: () => [worker.pid], postgres: () => pidsByName('postgres'), redis: () => pidsByName('redis-server') });
    meter.start();
    let workerRssPeak = 0;
    const sampleRss = setInterval(() => {
      workerRssPeak = Math.max(workerRssPeak, rssBytes(worker.pid) ?? 0);
    }, RSS_SAMPLE_MS).unref();
    let pending = jobs;
    const deadline = Date.now() + 300_000;
    while (pending > 0 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      if (worker.child.exitCode !== null) throw new Error(`the worker exited:\n${worker.output()}`);
      const result = await client.query(`SELECT count(*)::int AS pending FROM reservations WHERE state = 'pending' AND model = '${MODEL}'`);
      pending = result.rows[0].pending as number;
    }
    const wallSeconds = (performance.now() - started) / 1000;
    clearInterval(sampleRss);
    const { cpu } = meter.stop();
    await stopProcess(worker);
    const span = await client.query(
      `SELECT extract(epoch FROM max(settled_at) - min(settled_at))::float8 AS seconds, count(*) FILTER (WHERE state = 'committed')::int AS committed
       FROM reservations WHERE model = '${MODEL}'`);
    const commitSeconds = Number(span.rows[0].seconds);
    const ledger = await openDatabase({ kind: 'postgres', url: router.databaseUrl!, poolSize: 2 }, { migrate: false });
    const audits = await Promise.all(accounts.map((account) => auditWallet(ledger.sql, account.accountId)));
    await ledger.close();
    return {
      jobs,
      seedSeconds: round(seedSeconds, 1),
      enqueueSeconds: round(enqueueSeconds, 1),
      settlementsPerJob: perJob,
      windowMs: SETTLEMENT_BATCH_WINDOW_MS,
      commitSeconds: round(commitSeconds, 2),
      commitsPerSecond: round((span.rows[0].committed as number) / commitSeconds, 0),
      wallSeconds: round(wallSeconds, 2),
      cpuSeconds: Object.fromEntries(Object.entries(cpu).map(([name, seconds]) => [name, round(seconds, 2)])),
      accounts: Math.min(accounts.length, Math.ceil(jobs / Math.ceil(jobs / accounts.length))),
      auditConsistent: audits.every((audit) => audit.consistent),
      pendingAfter: pending,
      ...(workerRssPeak > 0 ? { workerRssPeakMB: round(workerRssPeak / 1024 / 1024, 1) } : {}),
      partitions: DEFAULT_SETTLEMENT_PARTITIONS,
    };
  } finally {
    await queue.close();
    await client.end();
  }
}
