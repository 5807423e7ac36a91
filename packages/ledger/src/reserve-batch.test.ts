// Batched reservations: concurrent requests on one wallet are admitted in arrival order while the
// wallet covers each, the refused ones are refused alone, and the books match one-at-a-time.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import { recordingStatementNames } from './__fixtures__/statement-names.js';
import {
  auditWallet, commitReservations, createApiKey, createReservationBatcher, createUser, getCredits, grantCredit, reserveCredit,
  reserveCreditAcross, reserveCreditBatch, type ReserveCreditInput, type SqlClient,
} from './index.js';

describeOnEachDatabase('batched reservations', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function fundedAccount(micros: bigint) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    if (micros > 0n) await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
    return user;
  }

  const request = (accountId: string, amountMicros: bigint, apiKeyId: string | null = null): ReserveCreditInput => ({
    reservationId: crypto.randomUUID(), accountId, apiKeyId, amountMicros, provider: 'openai', model: 'tts-1', characters: 5,
  });

  it('admits in order while spendable covers each; a request that does not fit is refused alone', async () => {
    const { personalAccountId: accountId } = await fundedAccount(1_000n);
    const results = await reserveCreditBatch(database.sql, accountId, [
      request(accountId, 400n), request(accountId, 700n), request(accountId, 500n), request(accountId, 100n), request(accountId, 1n),
    ]);
    expect(results).toEqual([
      { ok: true, balanceMicros: 1_000n, reservedMicros: 400n },
      { ok: false, reason: 'insufficient_credit' },
      { ok: true, balanceMicros: 1_000n, reservedMicros: 900n },
      { ok: true, balanceMicros: 1_000n, reservedMicros: 1_000n },
      { ok: false, reason: 'insufficient_credit' },
    ]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 1_000n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    const [count] = await database.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM ledger_entries WHERE account_id = $1::uuid AND kind = 'reserve'`, [accountId]);
    expect(Number(count!.count)).toBe(3);
  });

  it('refuses everything on an unknown account and writes nothing', async () => {
    const accountId = crypto.randomUUID();
    const results = await reserveCreditBatch(database.sql, accountId, [request(accountId, 1n), request(accountId, 0n)]);
    expect(results.every((result) => !result.ok)).toBe(true);
  });

  it('200 concurrent reservations on one wallet through reserveCredit: exactly what the wallet covers, never more', async () => {
    const { personalAccountId: accountId } = await fundedAccount(12_345n);
    const results = await Promise.all(Array.from({ length: 200 }, () => reserveCredit(database.sql, request(accountId, 100n))));
    expect(results.filter((result) => result.ok)).toHaveLength(123);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 12_345n, reservedMicros: 12_300n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('one bad request in a batch fails alone: its neighbours are reserved', async () => {
    const { personalAccountId: accountId } = await fundedAccount(1_000n);
    const batcher = createReservationBatcher(database.sql);
    // Not an integer: the database refuses the statement it is in.
    const bad = { ...request(accountId, 100n), characters: 1.5 };
    const settled = await Promise.allSettled([
      batcher.reserve(request(accountId, 100n)), batcher.reserve(bad), batcher.reserve(request(accountId, 100n)),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 200n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('one request each of several accounts in one statement: each admitted or refused as alone', async () => {
    const rich = (await fundedAccount(1_000n)).personalAccountId;
    const poor = (await fundedAccount(50n)).personalAccountId;
    const exact = (await fundedAccount(300n)).personalAccountId;
    const empty = (await fundedAccount(0n)).personalAccountId;
    const unknown = crypto.randomUUID();
    const free = (await fundedAccount(0n)).personalAccountId;
    const results = await reserveCreditAcross(database.sql, [
      request(rich, 400n), request(poor, 100n), request(exact, 300n), request(empty, 1n), request(unknown, 1n), request(free, 0n),
    ]);
    expect(results).toEqual([
      { ok: true, balanceMicros: 1_000n, reservedMicros: 400n },
      { ok: false, reason: 'insufficient_credit' },
      { ok: true, balanceMicros: 300n, reservedMicros: 300n },
      { ok: false, reason: 'insufficient_credit' },
      { ok: false, reason: 'insufficient_credit' },
      { ok: true, balanceMicros: 0n, reservedMicros: 0n },
    ]);
    for (const accountId of [rich, poor, exact, empty, free]) expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    const entries = await database.sql.query<{ account_id: string; count: number }>(
      `SELECT account_id::text, count(*)::int AS count FROM ledger_entries WHERE kind = 'reserve' AND account_id = ANY($1::uuid[]) GROUP BY account_id`,
      [`{${[rich, poor, exact, empty, free].join(',')}}`]);
    expect(new Map(entries.map((row) => [row.account_id, Number(row.count)]))).toEqual(new Map([[rich, 1], [exact, 1], [free, 1]]));
    await expect(reserveCreditAcross(database.sql, [request(rich, 1n), request(rich, 1n)])).rejects.toThrow(RangeError);
  });

  it('every column arrives as given, in both batch statements: awkward text, keys and none, ledger rows in arrival order', async () => {
    // Each batch travels as array literals: quotes, commas, braces, backslashes, spaces, the word NULL
    // and the empty string must each arrive as written, and a missing key as SQL NULL.
    const awkward = ['say "hi"', 'a,b', '{braces}', 'back\\slash\\', ' NULL ', 'NULL', '', 'ünï €'];
    const user = await fundedAccount(1_000_000n);
    const key = await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'batch' });
    const inOne = awkward.map((text, index) => ({
      ...request(user.personalAccountId, 10n + BigInt(index), index % 2 ? key.id : null),
      provider: text, model: `m ${text}`, characters: 1_000 + index,
    }));
    const across = await Promise.all(awkward.map(() => fundedAccount(1_000n)));
    const inMany = awkward.map((text, index) => ({
      ...request(across[index]!.personalAccountId, 20n + BigInt(index), index % 2 ? null : key.id),
      provider: `p ${text}`, model: text, characters: 2_000 + index,
    }));
    expect((await reserveCreditBatch(database.sql, user.personalAccountId, inOne)).every((result) => result.ok)).toBe(true);
    expect((await reserveCreditAcross(database.sql, inMany)).every((result) => result.ok)).toBe(true);
    for (const input of [...inOne, ...inMany]) {
      const [row] = await database.sql.query<{ account_id: string; api_key_id: string | null; amount: string; provider: string; model: string; characters: number }>(
        `SELECT account_id::text, api_key_id::text, amount_micros::text AS amount, provider, model, characters FROM reservations WHERE id = $1::uuid`,
        [input.reservationId]);
      expect(row).toEqual({
        account_id: input.accountId, api_key_id: input.apiKeyId, amount: input.amountMicros.toString(), provider: input.provider,
        model: input.model, characters: input.characters,
      });
      const [entry] = await database.sql.query<{ metadata: unknown }>(
        `SELECT metadata FROM ledger_entries WHERE reservation_id = $1::uuid AND kind = 'reserve'`, [input.reservationId]);
      expect(entry!.metadata).toEqual({
        amountMicros: Number(input.amountMicros), provider: input.provider, model: input.model, characters: input.characters,
      });
    }
    // One account's batch: its ledger rows were written in the order the requests arrived.
    const entries = await database.sql.query<{ reservation_id: string }>(
      `SELECT reservation_id::text FROM ledger_entries WHERE account_id = $1::uuid AND kind = 'reserve' ORDER BY id`, [user.personalAccountId]);
    expect(entries.map((entry) => entry.reservation_id)).toEqual(inOne.map((input) => input.reservationId));
    for (const account of [user, ...across]) expect((await auditWallet(database.sql, account.personalAccountId)).consistent).toBe(true);
  });

  it('the first requests of many accounts in one turn share one statement; a bad one fails alone', async () => {
    const accounts = await Promise.all(Array.from({ length: 30 }, () => fundedAccount(1_000n)));
    const { sql: counting, names } = recordingStatementNames(database.sql);
    const batcher = createReservationBatcher(counting);
    const results = await Promise.all(accounts.map((user, index) => batcher.reserve(request(user.personalAccountId, 100n + BigInt(index)))));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(names).toEqual(['ledger_reserve_across']);
    for (const [index, user] of accounts.entries()) {
      expect(await getCredits(database.sql, user.personalAccountId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 100n + BigInt(index) });
    }
    // Not an integer: the statement fails, and each request is tried alone.
    const [first, second, third] = accounts;
    const settled = await Promise.allSettled([
      batcher.reserve(request(first!.personalAccountId, 1n)),
      batcher.reserve({ ...request(second!.personalAccountId, 1n), characters: 1.5 }),
      batcher.reserve(request(third!.personalAccountId, 1n)),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await getCredits(database.sql, second!.personalAccountId))!.reservedMicros).toBe(101n);
    expect((await getCredits(database.sql, third!.personalAccountId))!.reservedMicros).toBe(103n);
  });

  it('reservations across accounts and commits over the same wallets, concurrently and in any order: no deadlock, books exact', async () => {
    const accounts = (await Promise.all(Array.from({ length: 12 }, () => fundedAccount(1_000_000n)))).map((user) => user.personalAccountId);
    const shuffled = () => [...accounts].sort(() => Math.random() - 0.5);
    let open: string[] = [];
    for (let round = 0; round < 15; round += 1) {
      const inputs = shuffled().map((accountId) => request(accountId, 1_000n));
      const toCommit = open;
      const [reserved] = await Promise.all([
        Promise.all([reserveCreditAcross(database.sql, inputs.slice(0, 6)), reserveCreditAcross(database.sql, inputs.slice(6))]),
        commitReservations(database.sql, toCommit.sort(() => Math.random() - 0.5).map((reservationId) => ({ reservationId, source: 'request' }))),
        reserveCreditAcross(database.sql, shuffled().map((accountId) => request(accountId, 10n))),
      ]);
      expect(reserved.flat().every((result) => result.ok)).toBe(true);
      open = inputs.map((input) => input.reservationId);
    }
    for (const accountId of accounts) {
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
      // 14 rounds committed at 1,000 each; the last round's and every 10-micro reservation still held.
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000_000n - 14_000n, reservedMicros: 1_000n + 150n });
    }
  });

  it('keys with spend caps keep their exact cap under concurrent batched traffic on the same wallet', async () => {
    const user = await fundedAccount(100_000n);
    const accountId = user.personalAccountId;
    const capped = await createApiKey(database.prisma, { accountId, name: 'capped', dailySpendCapMicros: 1_050n });
    const results = await Promise.all(Array.from({ length: 60 }, (_, index) =>
      reserveCredit(database.sql, { ...request(accountId, 100n, index % 2 ? capped.id : null), dailySpendCapMicros: index % 2 ? 1_050n : null })));
    const cappedOk = results.filter((result, index) => index % 2 === 1 && result.ok).length;
    const uncappedOk = results.filter((result, index) => index % 2 === 0 && result.ok).length;
    expect(cappedOk).toBe(10);
    expect(uncappedOk).toBe(30);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 100_000n, reservedMicros: 4_000n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });
});

describeOnEachDatabase('batched reservations on a serial database', (openedDatabase, mode) => {
  it.runIf(mode === 'pglite')('gathers what arrives while a batch is in flight into the next batch', async () => {
    const database = openedDatabase();
    expect(database.sql.serial).toBe(true);
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 1_000_000n, source: 'admin' });
    // Count the statements the batcher sends: 100 reservations arriving over several turns.
    let statements = 0;
    const counting: SqlClient = {
      ...database.sql,
      background: undefined,
      query: (text, values, name) => {
        statements += 1;
        return database.sql.query(text, values, name);
      },
    };
    const batcher = createReservationBatcher(counting);
    const pending: Promise<unknown>[] = [];
    for (let turn = 0; turn < 10; turn += 1) {
      for (let index = 0; index < 10; index += 1) {
        pending.push(batcher.reserve({
          reservationId: crypto.randomUUID(), accountId: user.personalAccountId, apiKeyId: null, amountMicros: 10n, provider: 'openai', model: 'tts-1', characters: 5,
        }));
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.all(pending);
    expect(results.every((result) => (result as { ok: boolean }).ok)).toBe(true);
    // One batch per turn would be 10 statements; holding while one is in flight needs far fewer.
    expect(statements).toBeLessThan(10);
    expect((await getCredits(database.sql, user.personalAccountId))!.reservedMicros).toBe(1_000n);
  });
});
