// The applier's batching: commits of reservations, and requests paid from allowances in a lane of their
// own, go to the database one batch at a time per lane (a second batch over the same wallets would only
// wait for the first's locks), and what gathers meanwhile is written as the next, larger batch. Every
// caller still learns its own outcome and the books are exact. With partitions by account (the worker's),
// batches of different partitions are written at once.
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { auditWallet, createAllowanceKeeper, DEFAULT_ALLOWANCE_SETTINGS, getCredits, openDatabase, type SqlClient } from '@voice-router/ledger';
import { fundedAccount, reserveMany, sleep } from '../test/fixtures.js';
import { createSettlementApplier, MAX_BATCHES_IN_FLIGHT, partitionOf } from './settlement-applier.js';

/** Wraps a client: counts the statements of each name, how many were in flight at once (each held a few ms) and their batches' ids. */
function counting(sql: SqlClient) {
  const inFlight = new Map<string, number>();
  const most = new Map<string, number>();
  const batches = new Map<string, number[]>();
  const batchIds = new Map<string, string[][]>();
  const calls = new Map<string, number>();
  const client: SqlClient = {
    ...sql,
    background: undefined,
    // Several statements at once, as on PostgreSQL (PGlite itself still runs them one after another).
    serial: false,
    async query(text, values, name) {
      const key = name ?? 'unnamed';
      calls.set(key, (calls.get(key) ?? 0) + 1);
      inFlight.set(key, (inFlight.get(key) ?? 0) + 1);
      most.set(key, Math.max(most.get(key) ?? 0, inFlight.get(key)!));
      // A batch is one array literal per column (commits, and requests paid from allowances): the
      // first column holds their ids, quoted, which have no commas.
      if (typeof values?.[0] === 'string' && values[0].startsWith('{')) {
        const ids = values[0] === '{}' ? [] : values[0].slice(1, -1).split(',').map((element) => element.replaceAll('"', ''));
        batches.set(key, [...(batches.get(key) ?? []), ids.length]);
        batchIds.set(key, [...(batchIds.get(key) ?? []), ids]);
      }
      try {
        await sleep(5);
        return await sql.query(text, values, name);
      } finally {
        inFlight.set(key, inFlight.get(key)! - 1);
      }
    },
  };
  return { client, most, batches, batchIds, calls };
}

/**
 * A new database with funded accounts (10 dollars each), `each` of them in each partition, and an
 * applier with that many partitions (two unless told) writing through a counting client.
 */
async function partitionedApplier(each: number, partitions = 2) {
  const database = await openDatabase({ kind: 'pglite-memory' });
  const byPartition: string[][] = Array.from({ length: partitions }, () => []);
  while (byPartition.some((accounts) => accounts.length < each)) {
    const accountId = await fundedAccount(database, 10_000_000n);
    const accounts = byPartition[partitionOf(accountId, partitions)]!;
    if (accounts.length < each) accounts.push(accountId);
  }
  const counted = counting(database.sql);
  const applier = createSettlementApplier(counted.client, 'worker', { gatherMs: 1, intervalMs: 0 }, partitions);
  return { database, byPartition, applier, ...counted };
}

describe('settlement applier', () => {
  it('writes commits and allowance-paid requests one batch at a time per lane; outcomes and books exact', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const accountId = await fundedAccount(database, 10_000_000n);
    const { client, most, batches } = counting(database.sql);
    const applier = createSettlementApplier(client, 'worker', { gatherMs: 1, intervalMs: 0 });

    // 600 reservations of their own, committed in one burst.
    const reserved = await reserveMany(database.sql, accountId, 600, 100n);
    // 600 requests paid from an allowance, settled in bursts as jobs arrive (every fourth voided).
    const keeper = createAllowanceKeeper(database.sql, { ...DEFAULT_ALLOWANCE_SETTINGS, hotRequestsPerSecond: 1, maxMicros: 1_000_000n });
    const paid: Array<{ reservationId: string; action: 'commit' | 'void' }> = [];
    const settled: Array<Promise<string>> = [];
    let spent = 0n;
    for (let index = 0; index < 600; index += 1) {
      const reservationId = crypto.randomUUID();
      const result = await keeper.reserve({ reservationId, accountId, apiKeyId: null, amountMicros: 100n, provider: 'openai', model: 'tts-1', characters: 5 });
      expect(result.ok).toBe(true);
      const action = index % 4 === 0 ? 'void' : 'commit';
      const allowance = keeper.settled(reservationId, action);
      if (!allowance) {
        // Reserved on its own (before the account was hot): settle it like any reservation.
        if (action === 'commit') {
          spent += 100n;
          settled.push(applier.apply({ action, reservationId }));
        } else {
          reserved.push(reservationId);
        }
        continue;
      }
      if (action === 'commit') spent += 100n;
      paid.push({ reservationId, action });
      settled.push(applier.apply({ action, reservationId, ...(action === 'void' ? { errorCode: 'upstream_error' } : {}), allowance }));
      if (index % 50 === 49) await sleep(1);
    }
    expect(paid.length).toBeGreaterThan(500);
    const commits = reserved.map((reservationId) => applier.apply({ action: 'commit', reservationId }));
    expect(new Set(await Promise.all([...settled, ...commits]))).toEqual(new Set(['settled']));
    spent += BigInt(reserved.length) * 100n;

    expect(MAX_BATCHES_IN_FLIGHT).toBe(1);
    expect(most.get('ledger_spends_settle')).toBe(1);
    expect(most.get('ledger_commit_many')).toBe(1);
    // While one batch is written, the next gathers: far fewer statements than bursts.
    const spendBatches = batches.get('ledger_spends_settle')!;
    expect(spendBatches.reduce((sum, size) => sum + size, 0)).toBe(paid.length);
    expect(Math.max(...spendBatches)).toBeGreaterThan(20);
    const commitBatches = batches.get('ledger_commit_many')!;
    expect(commitBatches.reduce((sum, size) => sum + size, 0)).toBe(reserved.length);
    expect(Math.max(...commitBatches)).toBe(200);

    await keeper.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n - spent, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    await database.close();
  });

  it('partitions by account: batches of different partitions are written at once, never two of one; books exact', async () => {
    const { database, byPartition, applier, most, batchIds } = await partitionedApplier(2);
    const accountOf = new Map<string, string>();
    for (const accountId of byPartition.flat()) {
      for (const id of await reserveMany(database.sql, accountId, 300, 100n)) accountOf.set(id, accountId);
    }
    // Interleaved, as the jobs of many customers arrive; every tenth names no account (an older
    // producer's job), which goes to the first partition whatever its account.
    const ids = [...accountOf.keys()].sort();
    const unnamed = new Set(ids.filter((_id, index) => index % 10 === 0));
    const outcomes = await Promise.all(ids.map((reservationId) =>
      applier.apply({ action: 'commit', reservationId, ...(unnamed.has(reservationId) ? {} : { accountId: accountOf.get(reservationId) }) })));
    expect(new Set(outcomes)).toEqual(new Set(['settled']));

    // One batch in flight per partition, both partitions at once.
    expect(most.get('ledger_commit_many')).toBe(2);
    const partitionOfId = (id: string) => (unnamed.has(id) ? 0 : partitionOf(accountOf.get(id), 2));
    const batches = batchIds.get('ledger_commit_many')!;
    for (const batch of batches) expect(new Set(batch.map(partitionOfId)).size).toBe(1);
    expect(new Set(batches.map((batch) => partitionOfId(batch[0]!)))).toEqual(new Set([0, 1]));
    expect(batches.flat().sort()).toEqual(ids);

    for (const accountId of byPartition.flat()) {
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n - 300n * 100n, reservedMicros: 0n });
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    }
    await database.close();
  });

  it('partitions by account: a steady load still goes out one statement at a time, in batches as large as one partition would make', async () => {
    const { database, byPartition, applier, most, batches } = await partitionedApplier(1);
    const [first, second] = byPartition.flat() as [string, string];
    const reserved = [await reserveMany(database.sql, first, 150, 100n), await reserveMany(database.sql, second, 150, 100n)];
    // Two commits (one per partition) every 2 ms, each statement taking 5 ms: neither partition ever has a
    // full batch waiting, so the other partition's batch waits for the one in flight.
    const settled: Array<Promise<string>> = [];
    for (let index = 0; index < 150; index += 1) {
      settled.push(applier.apply({ action: 'commit', reservationId: reserved[0]![index]!, accountId: first }));
      settled.push(applier.apply({ action: 'commit', reservationId: reserved[1]![index]!, accountId: second }));
      await sleep(2);
    }
    expect(new Set(await Promise.all(settled))).toEqual(new Set(['settled']));
    expect(most.get('ledger_commit_many')).toBe(1);
    const sizes = batches.get('ledger_commit_many')!;
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeGreaterThan(280);
    // Both partitions are written, alternately: far fewer statements than commits.
    expect(sizes.length).toBeLessThan(100);
    for (const accountId of [first, second]) {
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n - 150n * 100n, reservedMicros: 0n });
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    }
    await database.close();
  });

  it('partitions by account: under a steady load every partition gets its turn, not only the first two', async () => {
    const { database, byPartition, applier } = await partitionedApplier(1, 3);
    const accounts = byPartition.flat();
    const reserved = await Promise.all(accounts.map((accountId) => reserveMany(database.sql, accountId, 100, 100n)));
    // Three commits (one per partition) every 2 ms, each statement taking 5 ms: no partition ever has a
    // full batch waiting. Every partition's commits are written while the trickle lasts.
    const settled = accounts.map(() => [] as Array<Promise<string>>);
    const written = accounts.map(() => 0);
    for (let index = 0; index < 100; index += 1) {
      accounts.forEach((accountId, partition) => {
        settled[partition]!.push(applier.apply({ action: 'commit', reservationId: reserved[partition]![index]!, accountId }).then((outcome) => {
          written[partition]! += 1;
          return outcome;
        }));
      });
      await sleep(2);
    }
    for (const count of written) expect(count).toBeGreaterThan(0);
    expect(new Set(await Promise.all(settled.flat()))).toEqual(new Set(['settled']));
    for (const accountId of accounts) expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    await database.close();
  });

  it('spreads random account ids evenly over the partitions; one partition, or no account, is the first', () => {
    const counts = [0, 0, 0, 0];
    for (let index = 0; index < 4_000; index += 1) counts[partitionOf(crypto.randomUUID(), 4)]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(800);
    expect(partitionOf(crypto.randomUUID(), 1)).toBe(0);
    expect(partitionOf(undefined, 4)).toBe(0);
    expect(partitionOf('not-hex', 4)).toBe(0);
    expect(() => createSettlementApplier({} as SqlClient, 'worker', undefined, 0)).toThrow(RangeError);
  });

  it('paces batches: a steady load goes out at most once per interval, a commit after a quiet spell waits only the gather', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const accountId = await fundedAccount(database, 10_000_000n);
    const { client, batches, calls } = counting(database.sql);
    const intervalMs = 300;
    const applier = createSettlementApplier(client, 'request', { gatherMs: 1, intervalMs });
    const reserved = await reserveMany(database.sql, accountId, 121, 100n);

    // A steady trickle (one commit every 5 ms, each statement taking 5 ms): without the interval each
    // batch would hold one or two; with it, the batches start at least 300 ms apart.
    const started = performance.now();
    const trickle: Array<Promise<string>> = [];
    for (const reservationId of reserved.slice(0, 120)) {
      trickle.push(applier.apply({ action: 'commit', reservationId }));
      await sleep(5);
    }
    expect(new Set(await Promise.all(trickle))).toEqual(new Set(['settled']));
    const elapsed = performance.now() - started;
    // A batch of one is written by the single commit's own statement (ledger_commit).
    const singles = () => calls.get('ledger_commit') ?? 0;
    const statements = () => (batches.get('ledger_commit_many') ?? []).length + singles();
    const sizes = batches.get('ledger_commit_many') ?? [];
    expect(sizes.reduce((sum, size) => sum + size, 0) + singles()).toBe(120);
    const written = statements();
    expect(written).toBeLessThanOrEqual(Math.ceil(elapsed / intervalMs) + 1);

    // After a quiet spell longer than the interval, one commit goes out after the gather alone.
    await sleep(intervalMs + 50);
    const alone = performance.now();
    expect(await applier.apply({ action: 'commit', reservationId: reserved[120]! })).toBe('settled');
    expect(performance.now() - alone).toBeLessThan(intervalMs - 50);
    expect(statements()).toBe(written + 1);

    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n - 121n * 100n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    await database.close();
  });
});
