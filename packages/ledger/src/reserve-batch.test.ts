// Batched reservations: concurrent requests on one wallet are admitted in arrival order while the
// wallet covers each, the refused ones are refused alone, and the books match one-at-a-time.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import {
  auditWallet, createApiKey, createReservationBatcher, createUser, getCredits, grantCredit, reserveCredit, reserveCreditBatch,
  type ReserveCreditInput, type SqlClient,
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
