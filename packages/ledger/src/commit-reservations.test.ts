// Batched commits: the same books as one commit at a time (balances, running balance-after, one
// settlement row per reservation), exactly once under duplicates and concurrent batches.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import { auditWallet, commitReservations, createUser, getCredits, grantCredit, reserveCredit, voidReservation } from './index.js';

describeOnEachDatabase('batched commits', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function fundedAccount(micros: bigint) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
    return user.personalAccountId;
  }

  async function reserveMany(accountId: string, amounts: bigint[]) {
    const ids: string[] = [];
    for (const amountMicros of amounts) {
      const reservationId = crypto.randomUUID();
      const result = await reserveCredit(database.sql, {
        reservationId, accountId, apiKeyId: null, amountMicros, provider: 'openai', model: 'tts-1', characters: 3,
      });
      expect(result.ok).toBe(true);
      ids.push(reservationId);
    }
    return ids;
  }

  it('commits across accounts in one call with exact balances, running sums and per-id outcomes', async () => {
    const first = await fundedAccount(10_000n);
    const second = await fundedAccount(5_000n);
    const firstIds = await reserveMany(first, [100n, 250n, 1n]);
    const secondIds = await reserveMany(second, [700n, 300n]);
    const voided = (await reserveMany(first, [40n]))[0]!;
    expect(await voidReservation(database.sql, { reservationId: voided, source: 'request', errorCode: 'x' })).toBe('settled');
    const missing = crypto.randomUUID();
    // Interleaved accounts, a duplicate, an already-voided and an unknown reservation.
    const order = [firstIds[0]!, secondIds[0]!, firstIds[1]!, firstIds[0]!, secondIds[1]!, firstIds[2]!, voided, missing];
    const outcomes = await commitReservations(database.sql, order.map((reservationId) => ({
      reservationId, source: 'worker', metadata: { deliveredBytes: 10 },
    })));
    expect(Object.fromEntries(outcomes)).toEqual({
      [firstIds[0]!]: 'settled', [firstIds[1]!]: 'settled', [firstIds[2]!]: 'settled', [secondIds[0]!]: 'settled', [secondIds[1]!]: 'settled',
      [voided]: 'already_settled', [missing]: 'not_found',
    });
    expect(await getCredits(database.sql, first)).toEqual({ balanceMicros: 9_649n, reservedMicros: 0n });
    expect(await getCredits(database.sql, second)).toEqual({ balanceMicros: 4_000n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, first)).consistent).toBe(true);
    expect((await auditWallet(database.sql, second)).consistent).toBe(true);
    const [entry] = await database.sql.query<{ metadata: Record<string, unknown>; source: string }>(
      `SELECT metadata, source FROM ledger_entries WHERE reservation_id = $1::uuid AND kind = 'commit'`, [firstIds[1]!]);
    expect(entry).toEqual({ source: 'worker', metadata: { provider: 'openai', model: 'tts-1', characters: 3, deliveredBytes: 10 } });
    // A second delivery of the same batch changes nothing.
    const again = await commitReservations(database.sql, order.map((reservationId) => ({ reservationId, source: 'worker' })));
    expect([...again.values()].filter((outcome) => outcome === 'settled')).toEqual([]);
    expect(await getCredits(database.sql, first)).toEqual({ balanceMicros: 9_649n, reservedMicros: 0n });
  });

  it('writes the source and metadata of each commit as given, whatever characters they hold, and answers by the ids given', async () => {
    const accountId = await fundedAccount(10_000n);
    const ids = await reserveMany(accountId, [10n, 20n, 30n]);
    const awkward = [
      { source: 'worker "quoted", {braced}', metadata: { note: 'a "b", {c} \\ d', nested: { list: [1, 'two', null] }, word: 'NULL' } },
      { source: 'back\\slash', metadata: {} },
      { source: '', metadata: { empty: '' } },
    ];
    // Upper case, as a caller may spell them: outcomes are keyed by the id lower-cased.
    const outcomes = await commitReservations(database.sql, ids.map((id, index) => ({ reservationId: id.toUpperCase(), ...awkward[index]! })));
    expect([...outcomes.entries()]).toEqual(ids.map((id) => [id, 'settled']));
    const rows = await database.sql.query<{ reservation_id: string; source: string; metadata: unknown; micros_delta: unknown }>(
      `SELECT reservation_id::text, source, metadata, micros_delta::text AS micros_delta FROM ledger_entries
       WHERE account_id = $1::uuid AND kind = 'commit' ORDER BY id`, [accountId]);
    expect(rows.map((row) => ({
      id: row.reservation_id, source: row.source, delta: row.micros_delta,
      metadata: typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata,
    }))).toEqual(ids.map((id, index) => ({
      id, source: awkward[index]!.source, delta: String(-(index + 1) * 10),
      metadata: { provider: 'openai', model: 'tts-1', characters: 3, ...awkward[index]!.metadata },
    })));
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 9_940n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('concurrent overlapping batches over the same accounts commit each reservation once, without deadlock', async () => {
    const accounts = [await fundedAccount(100_000n), await fundedAccount(100_000n), await fundedAccount(100_000n)];
    const ids: string[] = [];
    for (const account of accounts) ids.push(...(await reserveMany(account, Array.from({ length: 20 }, () => 10n))));
    const shuffled = () => [...ids].sort(() => Math.random() - 0.5).slice(0, 40).map((reservationId) => ({ reservationId, source: 'worker' }));
    const results = await Promise.all(Array.from({ length: 6 }, () => commitReservations(database.sql, shuffled())));
    const settledCount = new Map<string, number>();
    for (const result of results) for (const [id, outcome] of result) if (outcome === 'settled') settledCount.set(id, (settledCount.get(id) ?? 0) + 1);
    expect([...settledCount.values()].every((count) => count === 1)).toBe(true);
    const rest = await commitReservations(database.sql, ids.map((reservationId) => ({ reservationId, source: 'worker' })));
    expect(settledCount.size + [...rest.values()].filter((outcome) => outcome === 'settled').length).toBe(60);
    for (const account of accounts) {
      expect(await getCredits(database.sql, account)).toEqual({ balanceMicros: 99_800n, reservedMicros: 0n });
      expect((await auditWallet(database.sql, account)).consistent).toBe(true);
    }
    const [rows] = await database.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ledger_entries WHERE kind = 'commit' AND reservation_id = ANY($1::uuid[])`, [`{${ids.join(',')}}`]);
    expect(Number(rows!.count)).toBe(60);
  });
});
