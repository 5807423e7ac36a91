// PostgreSQL unreachable for 30 s (a restart or fail-over), staged with a loopback proxy that resets
// every connection: the in-process settler, the BullMQ worker and the queue settler's direct-to-
// database fallback (Redis down too) all keep their commits, the reaper (1 s bound, running all the
// while on its own connection) voids none of them, and every one lands once PostgreSQL is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditWallet, openDatabase, type Database } from '@voice-router/ledger';
import {
  announceSkip, createTestDatabase, flushRedisPrefix, postgresUrl, redisServerAvailable, redisUrl, startPrivateRedis, startTcpProxy,
  uniqueRedisPrefix, type TestDatabase,
} from '@voice-router/test-support';
import { fundedAccount, outcomes, reserveMany, sleep, waitFor } from '../test/fixtures.js';
import {
  createInProcessSettler, createQueuedSettlementGuard, createQueueSettler, startReaper, startSettlementWorker,
} from './index.js';

const OUTAGE_MS = 30_000;
const runnable = Boolean(postgresUrl() && redisUrl()) && redisServerAvailable();
if (!runnable) announceSkip('settlement across a PostgreSQL outage', 'needs DATABASE_URL, REDIS_URL and a redis-server binary');

describe.runIf(runnable)('settlement across a 30 s PostgreSQL outage', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const prefix = uniqueRedisPrefix();

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
    await flushRedisPrefix(redisUrl()!, prefix);
  });

  it('loses no commit and reaps none of them, in every settlement path', { timeout: 150_000 }, async () => {
    const target = new URL(testDatabase.url);
    const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const throughProxy = await openDatabase({ kind: 'postgres', url: proxy.urlFor(testDatabase.url), poolSize: 5 }, { migrate: false });
    const deadRedis = await startPrivateRedis();
    await deadRedis.stop();

    const accountId = await fundedAccount(database, 100_000n);
    const inProcess = await reserveMany(database.sql, accountId, 10);
    const queued = await reserveMany(database.sql, accountId, 10);
    const fallback = await reserveMany(database.sql, accountId, 10);
    const abandoned = await reserveMany(database.sql, accountId, 2);

    const inProcessSettler = createInProcessSettler({ sql: throughProxy.sql });
    const queueSettler = createQueueSettler({ redisUrl: redisUrl()!, prefix, fallbackSql: throughProxy.sql });
    const fallbackSettler = createQueueSettler({ redisUrl: deadRedis.url, prefix: uniqueRedisPrefix(), fallbackSql: throughProxy.sql });
    const worker = await startSettlementWorker({ redisUrl: redisUrl()!, prefix, sql: throughProxy.sql, concurrency: 5 });
    const guard = createQueuedSettlementGuard({ redisUrl: redisUrl()!, prefix, sql: database.sql });
    const reaper = startReaper({
      sql: database.sql, olderThanMs: 1_000, intervalMs: 500, guards: [inProcessSettler, queueSettler, fallbackSettler, guard],
    });
    try {
      proxy.cut();
      for (const id of inProcess) inProcessSettler.settle({ action: 'commit', reservationId: id });
      for (const id of queued) queueSettler.settle({ action: 'commit', reservationId: id });
      for (const id of fallback) fallbackSettler.settle({ action: 'commit', reservationId: id });
      await sleep(OUTAGE_MS);
      expect((await outcomes(database.sql, [...inProcess, ...queued, ...fallback])).states).toEqual({ pending: 30 });
      proxy.restore();

      const all = [...inProcess, ...queued, ...fallback];
      await waitFor(async () => (await outcomes(database.sql, all)).states.committed === 30, 60_000, 'every commit to land');
      await waitFor(async () => (await outcomes(database.sql, abandoned)).states.voided === 2, 10_000, 'the reaper');
      const result = await outcomes(database.sql, all);
      expect(result.voidSources).toEqual([]);
      expect(result.rowsPerReservation.every((count) => count === 1)).toBe(true);
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    } finally {
      reaper.stop();
      proxy.restore();
      await inProcessSettler.close({ timeoutMs: 5_000 });
      await queueSettler.close({ timeoutMs: 5_000 });
      await fallbackSettler.close({ timeoutMs: 5_000 });
      await worker.close();
      await guard.close();
      await throughProxy.close();
      await proxy.close();
    }
  });
});
