// A decided settlement beats the reaper: reservations whose commit is still held in memory (the
// database is down) or queued in BullMQ (no worker runs) outlive a 1 s reaper bound and are
// committed once the settlement can proceed; reservations nobody settles are still reaped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue, Worker } from 'bullmq';
import { openDatabase, openReservations, type Database } from '@voice-router/ledger';
import {
  announceSkip, createTestDatabase, flushRedisPrefix, freePort, postgresUrl, redisUrl, startTcpProxy, uniqueRedisPrefix,
  type TestDatabase,
} from '@voice-router/test-support';
import { fundedAccount, outcomes, recordingLogger, reserveMany, sleep, waitFor } from '../test/fixtures.js';
import {
  createInProcessSettler, createQueuedSettlementGuard, createQueueSettler, SETTLEMENT_QUEUE, startReaper, startSettlementWorker,
} from './index.js';
import { redisConnection } from './redis-connection.js';

const runnable = Boolean(postgresUrl() && redisUrl());
if (!runnable) announceSkip('the reaper and queued settlements', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(runnable)('the reaper leaves settlements on their way alone', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const prefixes: string[] = [];
  const prefix = () => {
    const value = uniqueRedisPrefix();
    prefixes.push(value);
    return value;
  };

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    for (const value of prefixes) await flushRedisPrefix(redisUrl()!, value);
  });

  it('BullMQ: commits queued with no worker running are not reaped; the worker then commits every one', async () => {
    const queuePrefix = prefix();
    const accountId = await fundedAccount(database, 10_000n);
    const queued = await reserveMany(database.sql, accountId, 10);
    const abandoned = await reserveMany(database.sql, accountId, 2);
    const settler = createQueueSettler({ redisUrl: redisUrl()!, prefix: queuePrefix, fallbackSql: database.sql });
    for (const id of queued) settler.settle({ action: 'commit', reservationId: id });
    expect(await settler.drain()).toEqual({ abandoned: 0 });
    await sleep(1_200);
    const guard = createQueuedSettlementGuard({ redisUrl: redisUrl()!, prefix: queuePrefix, sql: database.sql });
    // What the metrics read: voids per reaper run, the queue's depth and lag, open reservations, jobs applied.
    const reaped: number[] = [];
    const reaper = startReaper({ sql: database.sql, olderThanMs: 1_000, intervalMs: 60_000, guards: [settler, guard], onReaped: (count) => reaped.push(count) });
    expect(await reaper.runOnce()).toBe(2);
    expect(reaped).toEqual([2]);
    expect((await outcomes(database.sql, queued)).states).toEqual({ pending: 10 });
    const counts = await guard.queueCounts();
    // The producer batches the settlements of a short window into one job (at most 100 per job).
    expect(counts).toMatchObject({ delayed: 0, active: 0, failed: 0 });
    expect(counts.waiting).toBeGreaterThanOrEqual(1);
    expect(counts.waiting).toBeLessThanOrEqual(10);
    expect(counts.oldestAgeMs).toBeGreaterThanOrEqual(1_000);
    expect((await openReservations(database.sql)).open).toBeGreaterThanOrEqual(10);
    expect((await openReservations(database.sql)).oldestAgeSeconds).toBeGreaterThanOrEqual(1);
    const applied: string[] = [];
    const worker = await startSettlementWorker({
      redisUrl: redisUrl()!, prefix: queuePrefix, sql: database.sql, onApplied: (action, outcome) => applied.push(`${action}:${outcome}`),
    });
    await waitFor(async () => (await outcomes(database.sql, queued)).states.committed === 10, 20_000, 'the worker');
    expect(await reaper.runOnce()).toBe(0);
    expect(reaped).toEqual([2]);
    await waitFor(async () => applied.length === 10, 5_000, 'the applied hook');
    expect(new Set(applied)).toEqual(new Set(['commit:settled']));
    expect(await guard.queueCounts()).toMatchObject({ waiting: 0, delayed: 0, oldestAgeMs: 0 });
    const result = await outcomes(database.sql, [...queued, ...abandoned]);
    expect(result.states).toEqual({ committed: 10, voided: 2 });
    expect(result.voidSources).toEqual(['reaper', 'reaper']);
    reaper.stop();
    await worker.close();
    await settler.close();
    await guard.close();
  });

  it('BullMQ: a settlement job that used up its retries is applied by the reaper, not voided', async () => {
    const queuePrefix = prefix();
    const accountId = await fundedAccount(database, 10_000n);
    const [id] = await reserveMany(database.sql, accountId, 1);
    const queue = new Queue(SETTLEMENT_QUEUE, { connection: redisConnection(redisUrl()!), prefix: queuePrefix });
    await queue.add('commit', { action: 'commit', reservationId: id }, { jobId: `settle-${id}`, attempts: 1 });
    // A consumer that fails it once, for good (as a worker does at the end of a long database outage).
    const failing = new Worker(SETTLEMENT_QUEUE, async () => {
      throw new Error('database unavailable');
    }, { connection: redisConnection(redisUrl()!), prefix: queuePrefix });
    await waitFor(async () => (await queue.getJobState(`settle-${id}`)) === 'failed', 10_000, 'the job to fail');
    await failing.close();
    await sleep(1_100);
    const guard = createQueuedSettlementGuard({ redisUrl: redisUrl()!, prefix: queuePrefix, sql: database.sql });
    const reaper = startReaper({ sql: database.sql, olderThanMs: 1_000, intervalMs: 60_000, guards: [guard] });
    expect(await reaper.runOnce()).toBe(0);
    expect((await outcomes(database.sql, [id!])).states).toEqual({ committed: 1 });
    expect(await queue.getJob(`settle-${id}`)).toBeUndefined();
    reaper.stop();
    await guard.close();
    await queue.close();
  });

  it('voids nothing while it cannot tell what is queued (Redis unreachable)', async () => {
    const accountId = await fundedAccount(database, 10_000n);
    const ids = await reserveMany(database.sql, accountId, 3);
    await sleep(1_100);
    const logger = recordingLogger();
    const guard = createQueuedSettlementGuard({ redisUrl: `redis://127.0.0.1:${await freePort()}`, prefix: prefix(), sql: database.sql });
    const reaper = startReaper({ sql: database.sql, olderThanMs: 1_000, intervalMs: 60_000, guards: [guard], logger });
    expect(await reaper.runOnce()).toBe(0);
    expect((await outcomes(database.sql, ids)).states).toEqual({ pending: 3 });
    expect(logger.lines.some((line) => line.level === 'error' && /nothing was voided/.test(line.message))).toBe(true);
    reaper.stop();
    await guard.close();
    // Tidy: nobody settles these.
    expect(await startReaper({ sql: database.sql, olderThanMs: 1_000, intervalMs: 60_000 }).runOnce()).toBeGreaterThanOrEqual(3);
  });

  it('in-process: commits waiting out a PostgreSQL outage are not reaped, and land once it is back', async () => {
    const proxy = await startTcpProxy({ host: new URL(testDatabase.url).hostname, port: Number(new URL(testDatabase.url).port || 5432) });
    const throughProxy = await openDatabase({ kind: 'postgres', url: proxy.urlFor(testDatabase.url) }, { migrate: false });
    const accountId = await fundedAccount(database, 10_000n);
    const ids = await reserveMany(database.sql, accountId, 10);
    const settler = createInProcessSettler({ sql: throughProxy.sql });
    proxy.cut();
    for (const id of ids) settler.settle({ action: 'commit', reservationId: id });
    await sleep(1_200);
    const reaper = startReaper({ sql: database.sql, olderThanMs: 1_000, intervalMs: 60_000, guards: [settler] });
    expect(await reaper.runOnce()).toBe(0);
    expect((await outcomes(database.sql, ids)).states).toEqual({ pending: 10 });
    proxy.restore();
    expect(await settler.drain({ timeoutMs: 20_000 })).toEqual({ abandoned: 0 });
    expect((await outcomes(database.sql, ids)).states).toEqual({ committed: 10 });
    reaper.stop();
    await settler.close();
    await throughProxy.close();
    await proxy.close();
  });
});
