// Requests paid from allowances, settled the way the data plane settles them: in-process (embedded) and
// through BullMQ and the worker (scaled out). The books end exact, a redelivered settlement charges
// nothing twice, and the reaper leaves an allowance alone while a request paid from it is still queued.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditWallet, createAllowanceKeeper, DEFAULT_ALLOWANCE_SETTINGS, getCredits, openDatabase, type AllowanceKeeper, type Database,
} from '@voice-router/ledger';
import { announceSkip, createTestDatabase, flushRedisPrefix, postgresUrl, redisUrl, uniqueRedisPrefix, type TestDatabase } from '@voice-router/test-support';
import { fundedAccount, waitFor } from '../test/fixtures.js';
import {
  createInProcessSettler, createQueuedSettlementGuard, createQueueSettler, startReaper, startSettlementWorker, type Settler,
} from './index.js';

const COST = 100n;

/** Pays `count` requests through the keeper (hot at once) and settles them as the data plane does: every fifth voided. */
async function payAndSettle(keeper: AllowanceKeeper, settler: Settler, accountId: string, count: number) {
  let committed = 0n;
  let fromAllowance = 0;
  await Promise.all(Array.from({ length: count }, async (_, index) => {
    const reservationId = crypto.randomUUID();
    const result = await keeper.reserve({ reservationId, accountId, apiKeyId: null, amountMicros: COST, provider: 'openai', model: 'tts-1', characters: 5 });
    expect(result.ok).toBe(true);
    if (result.ok && result.allowanceId) fromAllowance += 1;
    const action = index % 5 === 0 ? 'void' : 'commit';
    if (action === 'commit') committed += COST;
    const allowance = keeper.settled(reservationId, action);
    const job = { action, reservationId, ...(action === 'void' ? { errorCode: 'upstream_error' } : {}) } as const;
    settler.settle(allowance ? { ...job, allowance } : job);
    // The same decision again (a retry), as a redelivered job would bring it.
    if (allowance && index % 3 === 0) settler.settle({ ...job, reservationId, allowance });
  }));
  return { committed, fromAllowance };
}

const hot = { ...DEFAULT_ALLOWANCE_SETTINGS, hotRequestsPerSecond: 1, maxMicros: 10_000n };

describe('allowance payments settled in-process', () => {
  it('writes every request paid from an allowance once; the books are exact after the keeper returns the rest', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const accountId = await fundedAccount(database, 1_000_000n);
    const keeper = createAllowanceKeeper(database.sql, hot);
    const settler = createInProcessSettler({ sql: database.sql });
    const { committed, fromAllowance } = await payAndSettle(keeper, settler, accountId, 300);
    expect(fromAllowance).toBeGreaterThan(250);
    await keeper.close();
    await settler.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000_000n - committed, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    // Every request settled once in the ledger; a reservation row only for those reserved on their own.
    const [counts] = await database.sql.query<{ settled: number; reserved: number; open: number }>(
      `SELECT (SELECT count(*) FROM ledger_entries WHERE account_id = $1::uuid AND kind IN ('commit', 'void'))::int AS settled,
              count(*) FILTER (WHERE kind = 'request')::int AS reserved, count(*) FILTER (WHERE state = 'pending')::int AS open
       FROM reservations WHERE account_id = $1::uuid`, [accountId]);
    expect(counts).toEqual({ settled: 300, reserved: 300 - fromAllowance, open: 0 });
    await database.close();
  });
});

const scaled = Boolean(postgresUrl() && redisUrl());
if (!scaled) announceSkip('allowance payments through BullMQ', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(scaled)('allowance payments through BullMQ', () => {
  let testDatabase: TestDatabase;
  let database: Database;
  const prefixes: string[] = [];

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url });
  });
  afterAll(async () => {
    for (const prefix of prefixes) await flushRedisPrefix(redisUrl()!, prefix);
    await database?.close();
    await testDatabase?.drop();
  });

  it('the worker writes them; the reaper spares an allowance while a request paid from it is queued', async () => {
    const prefix = uniqueRedisPrefix();
    prefixes.push(prefix);
    const accountId = await fundedAccount(database, 1_000_000n);
    const keeper = createAllowanceKeeper(database.sql, hot);
    const settler = createQueueSettler({ redisUrl: redisUrl()!, prefix, fallbackSql: database.sql });
    const guard = createQueuedSettlementGuard({ redisUrl: redisUrl()!, prefix, sql: database.sql });
    try {
      // No worker yet: the settlements wait in the queue.
      const { committed, fromAllowance } = await payAndSettle(keeper, settler, accountId, 300);
      expect(fromAllowance).toBeGreaterThan(250);
      expect(await settler.drain({ timeoutMs: 10_000 })).toEqual({ abandoned: 0 });
      await keeper.close();
      // Every allowance looks ancient; their requests are still queued, so the reaper must leave them.
      await database.sql.query(`UPDATE reservations SET created_at = now() - interval '1 day' WHERE account_id = $1::uuid AND kind = 'allowance'`, [accountId]);
      const reaper = startReaper({ sql: database.sql, olderThanMs: 60_000, intervalMs: 3_600_000, guards: [guard] });
      expect(await reaper.runOnce()).toBe(0);
      const worker = await startSettlementWorker({ redisUrl: redisUrl()!, prefix, sql: database.sql, concurrency: 4 });
      try {
        await waitFor(async () => (await getCredits(database.sql, accountId))?.reservedMicros === 0n, 30_000, 'the worker to write every request');
      } finally {
        await worker.close();
      }
      expect(await reaper.runOnce()).toBe(0);
      reaper.stop();
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000_000n - committed, reservedMicros: 0n });
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
      const [counts] = await database.sql.query<{ settled: number; reserved: number; open: number; allowances: number }>(
        `SELECT (SELECT count(*) FROM ledger_entries WHERE account_id = $1::uuid AND kind IN ('commit', 'void'))::int AS settled,
                count(*) FILTER (WHERE kind = 'request')::int AS reserved, count(*) FILTER (WHERE state = 'pending')::int AS open,
                count(*) FILTER (WHERE kind = 'allowance' AND state = 'committed')::int AS allowances
         FROM reservations WHERE account_id = $1::uuid`, [accountId]);
      expect(counts).toMatchObject({ settled: 300, reserved: 300 - fromAllowance, open: 0 });
      expect(counts!.allowances).toBeGreaterThan(0);
    } finally {
      await settler.close({ timeoutMs: 5_000 });
      await guard.close();
    }
  });
});
