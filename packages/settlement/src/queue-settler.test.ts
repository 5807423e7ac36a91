// Redis going away under the queue settler: settlements fall back to the database at once, drain is
// bounded, and once Redis is back nothing settles twice. Uses a private redis-server (the machine's
// shared one serves other suites and is never stopped).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditWallet, getCredits, openDatabase, type Database } from '@voice-router/ledger';
import {
  announceSkip, createTestDatabase, postgresUrl, redisServerAvailable, startPrivateRedis, uniqueRedisPrefix, type PrivateRedis,
  type TestDatabase,
} from '@voice-router/test-support';
import { fundedAccount, outcomes, recordingLogger, reserveMany, waitFor } from '../test/fixtures.js';
import { createQueueSettler, startSettlementWorker } from './index.js';

const runnable = Boolean(postgresUrl()) && redisServerAvailable();
if (!runnable) announceSkip('queue settler during a Redis outage', 'needs DATABASE_URL and a redis-server binary');

describe.runIf(runnable)('queue settler during a Redis outage', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  let redis: PrivateRedis;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
    redis = await startPrivateRedis();
  });
  afterAll(async () => {
    await redis?.stop();
    await database?.close();
    await testDatabase?.drop();
  });

  it('writes settlements straight to the ledger while Redis is down, drains within its bound, and settles nothing twice once Redis is back', async () => {
    const accountId = await fundedAccount(database, 100_000n);
    const ids = await reserveMany(database.sql, accountId, 30);
    const prefix = uniqueRedisPrefix();
    const logger = recordingLogger();
    const worker = await startSettlementWorker({ redisUrl: redis.url, prefix, sql: database.sql, concurrency: 4 });
    const settler = createQueueSettler({ redisUrl: redis.url, prefix, fallbackSql: database.sql, logger });
    try {
      for (const id of ids.slice(0, 10)) settler.settle({ action: 'commit', reservationId: id });
      expect(await settler.drain({ timeoutMs: 10_000 })).toEqual({ abandoned: 0 });
      await waitFor(async () => (await outcomes(database.sql, ids.slice(0, 10))).states.committed === 10, 20_000, 'the worker');

      await redis.stop();
      for (const id of ids.slice(10)) settler.settle({ action: 'commit', reservationId: id });
      expect(await settler.drain({ timeoutMs: 15_000 })).toEqual({ abandoned: 0 });
      expect((await outcomes(database.sql, ids.slice(10))).states).toEqual({ committed: 20 });
      expect(logger.lines.some((line) => /applying it directly/.test(line.message))).toBe(true);

      // Redis returns (empty: no persistence). The same decisions again, as a retrying caller would send them.
      await redis.start();
      await waitFor(async () => {
        settler.settle({ action: 'commit', reservationId: ids[29]! });
        await settler.drain({ timeoutMs: 5_000 });
        return (worker.counts()['commit:already_settled'] ?? 0) >= 1;
      }, 30_000, 'the worker to reconnect');
      for (const id of ids.slice(10)) settler.settle({ action: 'commit', reservationId: id });
      expect(await settler.drain({ timeoutMs: 10_000 })).toEqual({ abandoned: 0 });
      await waitFor(async () => (worker.counts()['commit:already_settled'] ?? 0) >= 20, 20_000, 'the redelivered jobs');

      const result = await outcomes(database.sql, ids);
      expect(result.states).toEqual({ committed: 30 });
      expect(result.rowsPerReservation.every((count) => count === 1)).toBe(true);
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 97_000n, reservedMicros: 0n });
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    } finally {
      await settler.close({ timeoutMs: 5_000 });
      await worker.close();
    }
  });

  it('falls back at once when Redis is down from the start, and closes without waiting for it', async () => {
    const accountId = await fundedAccount(database, 10_000n);
    const ids = await reserveMany(database.sql, accountId, 5);
    await redis.stop();
    const settler = createQueueSettler({ redisUrl: redis.url, prefix: uniqueRedisPrefix(), fallbackSql: database.sql });
    for (const id of ids) settler.settle({ action: 'void', reservationId: id, errorCode: 'upstream_error' });
    expect(await settler.drain({ timeoutMs: 15_000 })).toEqual({ abandoned: 0 });
    expect((await outcomes(database.sql, ids)).states).toEqual({ voided: 5 });
    const closing = Date.now();
    await settler.close();
    expect(Date.now() - closing).toBeLessThan(10_000);
    await redis.start();
  });
});
