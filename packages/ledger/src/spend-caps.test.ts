// Per-key spend caps: checked in the reservation statement itself, given back by voids, recounted when
// a cap appears on a key that already spent, on PGlite and on PostgreSQL.
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import {
  addMember, auditWallet, commitReservation, createApiKey, createOrganization, createUser, findActiveApiKey, getCredits, grantCredit,
  hashApiKey, openAllowance, releaseAllowance, reserveCredit, settleAllowanceSpends, spendWindowResets, updateApiKey, voidReservation,
  type AllowanceSpend,
} from './index.js';

describeOnEachDatabase('spend caps', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function keyWithWallet(micros: bigint, caps: { daily?: bigint; monthly?: bigint } = {}) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const accountId = user.personalAccountId;
    if (micros > 0n) await grantCredit(database.sql, { accountId, amountMicros: micros, source: 'admin' });
    const key = await createApiKey(database.prisma, {
      accountId, name: 'capped', createdByUserId: user.userId, dailySpendCapMicros: caps.daily, monthlySpendCapMicros: caps.monthly,
    });
    const active = (await findActiveApiKey(database.sql, hashApiKey(key.keyValue)))!;
    return { accountId, key: active, userId: user.userId };
  }

  function reserve(key: Awaited<ReturnType<typeof keyWithWallet>>['key'], amountMicros: bigint, reservationId: string = crypto.randomUUID()) {
    return reserveCredit(database.sql, {
      reservationId, accountId: key.accountId, apiKeyId: key.id, amountMicros, provider: 'openai', model: 'tts-1', characters: 10,
      dailySpendCapMicros: key.dailySpendCapMicros, monthlySpendCapMicros: key.monthlySpendCapMicros,
    });
  }

  const spent = async (keyId: string) =>
    Object.fromEntries(
      (await database.sql.query<{ window_kind: string; spent_micros: unknown }>(`SELECT window_kind, spent_micros FROM key_spend WHERE api_key_id = $1::uuid`, [keyId]))
        .map((row) => [row.window_kind, BigInt(String(row.spent_micros))]),
    );

  it('lets exactly the daily cap through under concurrency and names the cap and its reset', async () => {
    const { accountId, key } = await keyWithWallet(100_000n, { daily: 1_000n });
    expect(key).toMatchObject({ dailySpendCapMicros: 1_000n, monthlySpendCapMicros: null });
    const results = await Promise.all(Array.from({ length: 60 }, () => reserve(key, 100n)));
    expect(results.filter((result) => result.ok)).toHaveLength(10);
    const refused = results.find((result) => !result.ok)!;
    expect(refused).toEqual({ ok: false, reason: 'daily_spend_cap', capMicros: 1_000n, resetsAt: spendWindowResets(new Date()).daily_spend_cap });
    expect(await spent(key.id)).toEqual({ day: 1_000n });
    // A refusal changes nothing: the wallet holds exactly the ten reservations.
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 100_000n, reservedMicros: 1_000n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('counts committed and reserved spend against the monthly cap; a void gives its amount back', async () => {
    const { key } = await keyWithWallet(100_000n, { daily: 10_000n, monthly: 500n });
    const first = crypto.randomUUID();
    const second = crypto.randomUUID();
    expect((await reserve(key, 300n, first)).ok).toBe(true);
    expect((await reserve(key, 200n, second)).ok).toBe(true);
    expect(await reserve(key, 1n)).toMatchObject({ ok: false, reason: 'monthly_spend_cap', capMicros: 500n });
    expect(await commitReservation(database.sql, { reservationId: first, source: 'worker' })).toBe('settled');
    expect(await reserve(key, 1n)).toMatchObject({ ok: false, reason: 'monthly_spend_cap' });
    expect(await voidReservation(database.sql, { reservationId: second, source: 'worker', errorCode: 'upstream_error' })).toBe('settled');
    expect(await spent(key.id)).toEqual({ day: 300n, month: 300n });
    expect((await reserve(key, 200n)).ok).toBe(true);
    expect(await reserve(key, 1n)).toMatchObject({ ok: false, reason: 'monthly_spend_cap' });
  });

  it('reports insufficient credit before any cap and writes no spend for it; free requests pass a spent cap', async () => {
    const { key } = await keyWithWallet(50n, { daily: 1_000n });
    expect(await reserve(key, 100n)).toEqual({ ok: false, reason: 'insufficient_credit' });
    expect(await spent(key.id)).toEqual({});
    expect((await reserve(key, 50n)).ok).toBe(true);
    expect((await reserve(key, 0n)).ok).toBe(true);
  });

  it('keeps keys without caps off the spend table', async () => {
    const { key } = await keyWithWallet(1_000n);
    const reservationId = crypto.randomUUID();
    expect((await reserve(key, 100n, reservationId)).ok).toBe(true);
    expect(await voidReservation(database.sql, { reservationId, source: 'worker', errorCode: 'x' })).toBe('settled');
    expect(await spent(key.id)).toEqual({});
  });

  it('recounts the window when a cap is set on a key that already spent, and lets creators and owners edit', async () => {
    const { key, userId, accountId } = await keyWithWallet(10_000n);
    const pending = crypto.randomUUID();
    const committed = crypto.randomUUID();
    expect((await reserve(key, 400n, committed)).ok).toBe(true);
    expect(await commitReservation(database.sql, { reservationId: committed, source: 'worker' })).toBe('settled');
    expect((await reserve(key, 300n, pending)).ok).toBe(true);

    const stranger = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    expect(await updateApiKey(database.sql, { keyId: key.id, userId: stranger.userId, changes: { dailySpendCapMicros: 1_000n } })).toBeUndefined();
    const updated = await updateApiKey(database.sql, { keyId: key.id, userId, changes: { dailySpendCapMicros: 1_000n, maxConcurrency: 3, name: 'renamed' } });
    expect(updated).toEqual({ keyHash: expect.any(String), accountId });
    expect(await spent(key.id)).toEqual({ day: 700n });

    const capped = (await findActiveApiKey(database.sql, updated!.keyHash))!;
    expect(capped).toMatchObject({ dailySpendCapMicros: 1_000n, maxConcurrency: 3 });
    expect(await reserve(capped, 301n)).toMatchObject({ ok: false, reason: 'daily_spend_cap' });
    // The pending reservation was counted by the recount, so its void gives the amount back.
    expect(await voidReservation(database.sql, { reservationId: pending, source: 'worker', errorCode: 'x' })).toBe('settled');
    expect(await spent(key.id)).toEqual({ day: 400n });
    expect((await reserve(capped, 600n)).ok).toBe(true);
    // A cap lowered below what was spent refuses paid requests, never free ones.
    await updateApiKey(database.sql, { keyId: key.id, userId, changes: { dailySpendCapMicros: 10n } });
    const lowered = (await findActiveApiKey(database.sql, updated!.keyHash))!;
    expect(await reserve(lowered, 1n)).toMatchObject({ ok: false, reason: 'daily_spend_cap', capMicros: 10n });
    expect((await reserve(lowered, 0n)).ok).toBe(true);

    // Back to no cap (null) and to the default concurrency.
    await updateApiKey(database.sql, { keyId: key.id, userId, changes: { dailySpendCapMicros: null, maxConcurrency: null } });
    expect(await findActiveApiKey(database.sql, updated!.keyHash)).toMatchObject({ dailySpendCapMicros: null, maxConcurrency: null, rateLimitPerMinute: null });
  });

  it('counts requests the key had paid from an allowance (they have only ledger rows) when a cap is set, and the key\'s other spend once', async () => {
    const { key, userId, accountId } = await keyWithWallet(10_000n);
    const other = await createApiKey(database.prisma, { accountId, name: 'other', createdByUserId: userId });
    const allowanceId = crypto.randomUUID();
    expect(await openAllowance(database.sql, { allowanceId, accountId, maxMicros: 5_000n, shareOfSpendable: 1n, minMicros: 1n }))
      .toEqual({ ok: true, amountMicros: 5_000n });
    const paid = (amountMicros: bigint, action: 'commit' | 'void', apiKeyId: string | null = key.id): AllowanceSpend => ({
      reservationId: crypto.randomUUID(), allowanceId, accountId, apiKeyId, amountMicros, provider: 'openai', model: 'tts-1', characters: 10,
      action, errorCode: action === 'void' ? 'upstream_error' : undefined, source: 'worker',
    });
    // Paid by this key: 250 + 150 committed, 500 voided (not spent); by the account's other key 900 (an
    // allowance pays for any key of its account without caps), and 70 by no key.
    const outcomes = await settleAllowanceSpends(database.sql, [
      paid(250n, 'commit'), paid(500n, 'void'), paid(150n, 'commit'), paid(900n, 'commit', other.id), paid(70n, 'commit', null),
    ]);
    expect([...outcomes.values()].every((outcome) => outcome === 'settled')).toBe(true);
    expect(await releaseAllowance(database.sql, { allowanceId, accountId, amountMicros: 5_000n - 1_370n, final: true })).toBe(true);
    // And one request reserved on its own, committed.
    const own = crypto.randomUUID();
    expect((await reserve(key, 100n, own)).ok).toBe(true);
    expect(await commitReservation(database.sql, { reservationId: own, source: 'worker' })).toBe('settled');

    const updated = await updateApiKey(database.sql, { keyId: key.id, userId, changes: { dailySpendCapMicros: 1_000n, monthlySpendCapMicros: 2_000n } });
    expect(await spent(key.id)).toEqual({ day: 500n, month: 500n });
    const capped = (await findActiveApiKey(database.sql, updated!.keyHash))!;
    expect(await reserve(capped, 501n)).toMatchObject({ ok: false, reason: 'daily_spend_cap' });
    expect((await reserve(capped, 500n)).ok).toBe(true);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000n - 1_370n - 100n, reservedMicros: 500n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('lets an organization owner edit a member\'s key but not another member', async () => {
    const owner = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const member = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const other = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const organization = await createOrganization(database.prisma, { name: 'Org', ownerUserId: owner.userId });
    await addMember(database.prisma, { accountId: organization.accountId, userId: member.userId });
    await addMember(database.prisma, { accountId: organization.accountId, userId: other.userId });
    const key = await createApiKey(database.prisma, { accountId: organization.accountId, name: 'member key', createdByUserId: member.userId });
    expect(await updateApiKey(database.sql, { keyId: key.id, userId: other.userId, changes: { rateLimitPerMinute: 5 } })).toBeUndefined();
    expect(await updateApiKey(database.sql, { keyId: key.id, userId: owner.userId, changes: { rateLimitPerMinute: 5 } })).toBeDefined();
    expect(await updateApiKey(database.sql, { keyId: key.id, userId: member.userId, changes: { rateLimitPerMinute: 6 } })).toBeDefined();
    expect(await findActiveApiKey(database.sql, hashApiKey(key.keyValue))).toMatchObject({ rateLimitPerMinute: 6 });
  });
});

describe('spend windows', () => {
  it('reset at the next UTC midnight and the first of the next UTC month', () => {
    const resets = spendWindowResets(new Date('2026-12-31T23:59:59.999Z'));
    expect(resets.daily_spend_cap.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(resets.monthly_spend_cap.toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(spendWindowResets(new Date('2026-02-10T05:00:00Z')).monthly_spend_cap.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
