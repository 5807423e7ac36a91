import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Queue } from 'bullmq';
import { auditWallet, createUser, getCredits, grantCredit, openDatabase, reserveCredit, type Database } from '@voice-router/ledger';
import {
  announceSkip, createTestDatabase, flushRedisPrefix, postgresUrl, redisUrl, uniqueRedisPrefix, type TestDatabase,
} from '@voice-router/test-support';
import { createInProcessSettler, createQueueSettler, startSettlementWorker, SETTLEMENT_QUEUE } from './index.js';
import { redisConnection } from './redis-connection.js';

async function reserveMany(database: Database, accountId: string, count: number, amount: bigint): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const reservationId = crypto.randomUUID();
    const result = await reserveCredit(database.sql, { reservationId, accountId, apiKeyId: null, amountMicros: amount, provider: 'local', model: 'm', characters: 1 });
    expect(result.ok).toBe(true);
    ids.push(reservationId);
  }
  return ids;
}

describe('in-process settlement', () => {
  it('settles each reservation once, however often it is asked', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const user = await createUser(database.prisma, { email: 'a@example.com' });
    await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 1000n, source: 'admin' });
    const ids = await reserveMany(database, user.personalAccountId, 4, 100n);
    const settler = createInProcessSettler({ sql: database.sql });
    for (const id of ids.slice(0, 2)) for (let copy = 0; copy < 3; copy += 1) settler.settle({ action: 'commit', reservationId: id });
    for (const id of ids.slice(2)) settler.settle({ action: 'void', reservationId: id, errorCode: 'upstream_error' });
    await settler.close();
    expect(await getCredits(database.sql, user.personalAccountId)).toEqual({ balanceMicros: 800n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, user.personalAccountId)).consistent).toBe(true);
    await database.close();
  });
});

const scaled = Boolean(postgresUrl() && redisUrl());
if (!scaled) announceSkip('settlement through BullMQ', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(scaled)('settlement through BullMQ and the worker', () => {
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

  it('applies every job once even when enqueued twice and delivered twice', async () => {
    const user = await createUser(database.prisma, { email: 'b@example.com' });
    await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 10_000n, source: 'admin' });
    const ids = await reserveMany(database, user.personalAccountId, 40, 100n);
    const settler = createQueueSettler({ redisUrl: redisUrl()!, prefix });
    for (const id of ids.slice(0, 30)) {
      settler.settle({ action: 'commit', reservationId: id });
      settler.settle({ action: 'commit', reservationId: id });
    }
    for (const id of ids.slice(30)) settler.settle({ action: 'void', reservationId: id, errorCode: 'client_closed' });
    await settler.drain();
    // A second delivery of an already-applied job, as after a worker crash between write and ack.
    const rawQueue = new Queue(SETTLEMENT_QUEUE, { connection: redisConnection(redisUrl()!), prefix });
    await rawQueue.add('commit', { action: 'commit', reservationId: ids[0]! }, { jobId: `redelivery-${ids[0]}` });
    await rawQueue.close();

    const worker = await startSettlementWorker({ redisUrl: redisUrl()!, prefix, sql: database.sql, concurrency: 8 });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const credits = await getCredits(database.sql, user.personalAccountId);
      if (credits?.reservedMicros === 0n) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    const counts = worker.counts();
    await worker.close();
    await settler.close();
    expect(await getCredits(database.sql, user.personalAccountId)).toEqual({ balanceMicros: 7_000n, reservedMicros: 0n });
    expect(counts['commit:settled']).toBe(30);
    expect(counts['void:settled']).toBe(10);
    expect(counts['commit:already_settled']).toBe(1);
    expect((await auditWallet(database.sql, user.personalAccountId)).consistent).toBe(true);
  });
});
