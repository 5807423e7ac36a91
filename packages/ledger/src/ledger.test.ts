import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import type { SqlClient, SqlValue } from './sql-client.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import {
  auditWallet, commitReservation, costForCharacters, createApiKey, createUser, findActiveApiKey, findActiveApiKeys, getCredits,
  applyMigrations, grantCredit, hashApiKey, IdempotencyConflictError, readMigrations, listActivity, reapReservations, reserveCredit, revokeApiKey, usageReport, usdToMicros, voidReservation,
} from './index.js';

describeOnEachDatabase('ledger', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function fundedAccount(micros: bigint) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    if (micros > 0n) await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
    return user.personalAccountId;
  }

  function reserve(accountId: string, amountMicros: bigint) {
    return reserveCredit(database.sql, {
      reservationId: crypto.randomUUID(), accountId, apiKeyId: null, amountMicros, provider: 'openai', model: 'tts-1', characters: 10,
    });
  }

  it('re-running migrations applies nothing new', async () => {
    expect(await applyMigrations(database.sql)).toEqual([]);
    const recorded = await database.sql.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(recorded.map((row) => row.migration_name)).toEqual(readMigrations().map((migration) => migration.name));
  });

  it('credits a grant once per idempotency key, however often and concurrently it is retried', async () => {
    const accountId = await fundedAccount(0n);
    const key = `test:${crypto.randomUUID()}`;
    const grant = () => grantCredit(database.sql, { accountId, amountMicros: 5_000n, source: 'admin', idempotencyKey: key });
    const results = await Promise.all(Array.from({ length: 20 }, grant));
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(new Set(results.map((result) => result.entryId)).size).toBe(1);
    const again = await grant();
    expect(again).toMatchObject({ duplicate: true, entryId: results[0]!.entryId });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 5_000n, reservedMicros: 0n });
    await expect(grantCredit(database.sql, { accountId, amountMicros: 6_000n, source: 'admin', idempotencyKey: key }))
      .rejects.toBeInstanceOf(IdempotencyConflictError);
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('reserves only what is spendable and never overspends under concurrency', async () => {
    const accountId = await fundedAccount(1_000n);
    const results = await Promise.all(Array.from({ length: 60 }, () => reserve(accountId, 100n)));
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 1_000n });
    const audit = await auditWallet(database.sql, accountId);
    expect(audit.consistent).toBe(true);
  });

  it('commits and voids exactly once, even when settled twice at the same time', async () => {
    const accountId = await fundedAccount(1_000n);
    const first = await reserve(accountId, 300n);
    const second = await reserve(accountId, 200n);
    expect(first.ok && second.ok).toBe(true);
    const ids = (await database.sql.query<{ id: string; amount_micros: unknown }>(
      `SELECT id, amount_micros FROM reservations WHERE account_id = $1::uuid`, [accountId],
    ));
    const bigId = ids.find((row) => String(row.amount_micros) === '300')!.id;
    const smallId = ids.find((row) => String(row.amount_micros) === '200')!.id;
    const commits = await Promise.all([1, 2, 3].map(() => commitReservation(database.sql, { reservationId: bigId, source: 'worker' })));
    expect(commits.sort()).toEqual(['already_settled', 'already_settled', 'settled']);
    // A void after the commit changes nothing.
    expect(await voidReservation(database.sql, { reservationId: bigId, source: 'worker', errorCode: 'x' })).toBe('already_settled');
    const voids = await Promise.all([1, 2].map(() => voidReservation(database.sql, { reservationId: smallId, source: 'worker', errorCode: 'upstream_error' })));
    expect(voids.sort()).toEqual(['already_settled', 'settled']);
    expect(await commitReservation(database.sql, { reservationId: crypto.randomUUID(), source: 'worker' })).toBe('not_found');
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 700n, reservedMicros: 0n });
    const activity = await listActivity(database.sql, accountId, 50);
    expect(activity.map((row) => row.kind)).toEqual(['void', 'commit', 'reserve', 'reserve', 'top-up']);
    expect(activity[0]!.metadata).toMatchObject({ errorCode: 'upstream_error', amountMicros: 200 });
    expect(activity[1]).toMatchObject({ microsDelta: -300n, microsBalanceAfter: 700n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('keeps the ledger append-only and the wallet within its constraints', async () => {
    const accountId = await fundedAccount(50n);
    await expect(database.sql.query(`UPDATE ledger_entries SET micros_delta = 1 WHERE account_id = $1::uuid`, [accountId])).rejects.toThrow(/append-only/);
    await expect(database.sql.query(`DELETE FROM ledger_entries WHERE account_id = $1::uuid`, [accountId])).rejects.toThrow(/append-only/);
    await expect(database.sql.query(`UPDATE wallets SET reserved_micros = 51 WHERE account_id = $1::uuid`, [accountId])).rejects.toThrow();
  });

  it('reaps reservations left pending by a dead process', async () => {
    const accountId = await fundedAccount(500n);
    expect((await reserve(accountId, 500n)).ok).toBe(true);
    expect(await reapReservations(database.sql, { olderThanMs: 60_000 })).toBe(0);
    await database.sql.query(`UPDATE reservations SET created_at = now() - interval '2 hours' WHERE account_id = $1::uuid`, [accountId]);
    expect(await reapReservations(database.sql, { olderThanMs: 60_000 })).toBe(1);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 500n, reservedMicros: 0n });
    const [latest] = await listActivity(database.sql, accountId, 1);
    expect(latest).toMatchObject({ kind: 'void', source: 'reaper' });
  });

  it('reads an account\'s newest rows through its index, even when it holds half the ledger and others wrote last', async () => {
    // The bad plan (the primary key walked backwards, other accounts' rows filtered out) is what the
    // planner picks for `account_id = $1 ORDER BY id DESC` here, with fresh statistics: it would read
    // every newer row of the other account before the first one asked for.
    const bulk = (accountId: string, kind: string) => database.sql.query(
      `INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source)
       SELECT $1::uuid, $2, 0, 0, gen_random_uuid(), 'request' FROM generate_series(1, 20000)`, [accountId, kind],
    );
    const history = await fundedAccount(0n);
    await bulk(history, 'void');
    await bulk(await fundedAccount(0n), 'reserve');
    await database.sql.query('ANALYZE ledger_entries');
    // The statements the reads run, explained with their own parameters.
    const statements: Array<{ text: string; values?: SqlValue[] }> = [];
    const recording: SqlClient = Object.assign(Object.create(database.sql) as SqlClient, {
      query: (text: string, values?: SqlValue[]) => (statements.push({ text, values }), database.sql.query(text, values)),
    });
    expect(await listActivity(recording, history, 50)).toHaveLength(50);
    expect((await usageReport(recording, { accountId: history, days: 30, limit: 100 })).totals.errorCount).toBe(100);
    expect(statements).toHaveLength(2);
    for (const { text, values } of statements) {
      const [row] = await database.sql.query<{ 'QUERY PLAN': unknown }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values);
      const plan = JSON.stringify(typeof row!['QUERY PLAN'] === 'string' ? JSON.parse(row!['QUERY PLAN']) : row!['QUERY PLAN']);
      expect(plan).toContain('"Index Name":"ledger_entries_account_id_id_idx"');
      expect(plan).not.toMatch(/"Rows Removed by Filter":[1-9]/);
    }
  });

  it('keeps settled reservations out of the pending index, which still serves the reaper', async () => {
    const accountId = await fundedAccount(0n);
    const indexBytes = async () => Number((await database.sql.query<{ bytes: unknown }>(
      `SELECT pg_relation_size('reservations_state_created_at_idx') AS bytes`))[0]!.bytes);
    const before = await indexBytes();
    // 20,000 settled rows (as commits and allowance payments leave them) and one old pending one.
    await database.sql.query(
      `INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters, state, settled_at, created_at)
       SELECT gen_random_uuid(), $1::uuid, 0, 'openai', 'index-test', 1, 'committed', now(), now() - interval '1 hour'
       FROM generate_series(1, 20000)`, [accountId]);
    const [stale] = await database.sql.query<{ id: string }>(
      `INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters, created_at)
       VALUES (gen_random_uuid(), $1::uuid, 0, 'openai', 'index-test', 1, now() - interval '1 hour') RETURNING id::text AS id`, [accountId]);
    // A full (state, created_at) index grows by ~140 KB for them (deduplicated keys); the partial one by a page or two.
    expect((await indexBytes()) - before).toBeLessThan(64 * 1024);
    await database.sql.query('ANALYZE reservations');
    const [plan] = await database.sql.query<{ 'QUERY PLAN': unknown }>(
      `EXPLAIN (FORMAT JSON) SELECT id FROM reservations WHERE state = 'pending' AND created_at < now() - interval '10 minutes'`);
    expect(JSON.stringify(plan!['QUERY PLAN'])).toContain('reservations_state_created_at_idx');
    const reaped = await database.sql.query<{ id: string }>(
      `SELECT id::text AS id FROM reservations WHERE state = 'pending' AND created_at < now() - interval '10 minutes' AND model = 'index-test'`);
    expect(reaped).toEqual([{ id: stale!.id }]);
  });

  it('finds active keys by hash and stops finding revoked ones', async () => {
    const accountId = await fundedAccount(0n);
    const key = await createApiKey(database.prisma, { accountId, name: 'test' });
    expect(key.keyValue).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
    // Stored hashes are hex SHA-256, as every earlier release wrote them.
    expect(hashApiKey('pk_abc')).toBe('0becee1d38a2a7aaff3894472d49157cd802878c92b2985e01ac8422fe8de9af');
    expect(await findActiveApiKey(database.sql, hashApiKey(key.keyValue))).toMatchObject({ id: key.id, accountId });
    expect(await revokeApiKey(database.prisma, { id: key.id })).toBe(true);
    expect(await findActiveApiKey(database.sql, hashApiKey(key.keyValue))).toBeUndefined();
  });

  it('finds several active keys in one statement, by hash, leaving out revoked and unknown ones', async () => {
    const accountId = await fundedAccount(0n);
    const [kept, revoked] = await Promise.all([
      createApiKey(database.prisma, { accountId, name: 'kept', maxConcurrency: 3, dailySpendCapMicros: 5_000n }),
      createApiKey(database.prisma, { accountId, name: 'revoked' }),
    ]);
    await revokeApiKey(database.prisma, { id: revoked.id });
    const unknown = hashApiKey('pk_unknown');
    const found = await findActiveApiKeys(database.sql, [hashApiKey(kept.keyValue), hashApiKey(revoked.keyValue), unknown]);
    expect([...found.keys()]).toEqual([hashApiKey(kept.keyValue)]);
    expect(found.get(hashApiKey(kept.keyValue))).toEqual(await findActiveApiKey(database.sql, hashApiKey(kept.keyValue)));
    expect(found.get(hashApiKey(kept.keyValue))).toMatchObject({ id: kept.id, accountId, maxConcurrency: 3, dailySpendCapMicros: 5_000n });
    expect((await findActiveApiKeys(database.sql, [])).size).toBe(0);
  });
});

describe('money arithmetic', () => {
  it('prices by code points with ceiling and no floating point drift', () => {
    expect(costForCharacters(0, 15)).toBe(0n);
    expect(costForCharacters(3, 15)).toBe(45n);
    expect(costForCharacters(3, 0.1)).toBe(1n);
    expect(costForCharacters(10, 0.1)).toBe(1n);
    expect(costForCharacters(11, 0.1)).toBe(2n);
    expect(costForCharacters(1_000_000, 37.5)).toBe(37_500_000n);
  });
  it('parses USD amounts exactly', () => {
    expect(usdToMicros('12.5')).toBe(12_500_000n);
    expect(usdToMicros('0.000001')).toBe(1n);
    expect(() => usdToMicros('1.0000001')).toThrow();
    expect(() => usdToMicros('-1')).toThrow();
  });
});
