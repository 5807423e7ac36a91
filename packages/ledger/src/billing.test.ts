// Card billing records and refund debits, on PGlite and (with DATABASE_URL) PostgreSQL.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import {
  auditWallet, createUser, debitWallet, findAccountByBillingCustomer, findBillingCustomer, findTopUp, getCredits, grantCredit,
  listActivity, listTopUps, paymentIntentCreditKey, recordTopUp, reserveCredit, saveBillingCustomer,
} from './index.js';

describeOnEachDatabase('billing records', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function account(micros: bigint) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    if (micros > 0n) await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
    return user.personalAccountId;
  }

  it('debits a refund once per key, however often and concurrently it is retried', async () => {
    const accountId = await account(10_000_000n);
    const key = `stripe:refund:re_${crypto.randomUUID()}`;
    const debit = () => debitWallet(database.sql, { accountId, amountMicros: 4_000_000n, source: 'stripe', idempotencyKey: key, metadata: { refundId: 're_x' } });
    const results = await Promise.all(Array.from({ length: 20 }, debit));
    expect(results.filter((result) => !result.duplicate)).toHaveLength(1);
    expect(new Set(results.map((result) => result.entryId)).size).toBe(1);
    expect(results.every((result) => result.takenMicros === 4_000_000n && result.shortfallMicros === 0n)).toBe(true);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 6_000_000n, reservedMicros: 0n });
    const [row] = await listActivity(database.sql, accountId, 1);
    expect(row).toMatchObject({ kind: 'refund', microsDelta: -4_000_000n, source: 'stripe', metadata: { refundId: 're_x', shortfallMicros: '0' } });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('never takes what is reserved: the rest is recorded as a shortfall', async () => {
    const accountId = await account(5_000_000n);
    const reserved = await reserveCredit(database.sql, {
      reservationId: crypto.randomUUID(), accountId, apiKeyId: null, amountMicros: 2_000_000n, provider: 'openai', model: 'tts-1', characters: 1,
    });
    expect(reserved.ok).toBe(true);
    const result = await debitWallet(database.sql, { accountId, amountMicros: 10_000_000n, source: 'stripe', idempotencyKey: `k:${crypto.randomUUID()}` });
    expect(result).toMatchObject({ takenMicros: 3_000_000n, shortfallMicros: 7_000_000n, balanceMicros: 2_000_000n, duplicate: false });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 2_000_000n, reservedMicros: 2_000_000n });
    const nothingLeft = await debitWallet(database.sql, { accountId, amountMicros: 1_000n, source: 'stripe', idempotencyKey: `k:${crypto.randomUUID()}` });
    expect(nothingLeft).toMatchObject({ takenMicros: 0n, shortfallMicros: 1_000n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('keeps one Stripe customer per account, found both ways', async () => {
    const accountId = await account(0n);
    expect(await findBillingCustomer(database.sql, accountId)).toBeUndefined();
    const stored = await Promise.all([saveBillingCustomer(database.sql, accountId, 'cus_first'), saveBillingCustomer(database.sql, accountId, 'cus_first')]);
    expect(stored).toEqual(['cus_first', 'cus_first']);
    expect(await saveBillingCustomer(database.sql, accountId, 'cus_second')).toBe('cus_first');
    expect(await findAccountByBillingCustomer(database.sql, 'cus_first')).toBe(accountId);
    expect(await findAccountByBillingCustomer(database.sql, 'cus_unknown')).toBeUndefined();
    // A customer id is one account's only.
    await expect(saveBillingCustomer(database.sql, await account(0n), 'cus_first')).rejects.toThrow(/another account/);
  });

  it('stores a customer saved twice at once without an error, account after account', async () => {
    // The race this covers (both inserts meeting on the customer id's unique index) shows on PostgreSQL.
    for (let round = 0; round < 30; round++) {
      const accountId = await account(0n);
      const customer = `cus_${crypto.randomUUID()}`;
      const stored = await Promise.all([1, 2, 3].map(() => saveBillingCustomer(database.sql, accountId, customer)));
      expect(stored).toEqual([customer, customer, customer]);
    }
  });

  it('records top-ups, never moves a final status back, and reports them credited from the ledger', async () => {
    const accountId = await account(0n);
    const paymentIntentId = `pi_${crypto.randomUUID()}`;
    const base = { paymentIntentId, accountId, amountCents: 1000, paymentMethodId: 'pm_1' };
    await recordTopUp(database.sql, { ...base, status: 'requires_payment_method', failureCode: 'authentication_required' });
    await recordTopUp(database.sql, { ...base, status: 'succeeded', failureCode: null });
    await recordTopUp(database.sql, { ...base, status: 'requires_action', failureCode: null });
    expect(await findTopUp(database.sql, paymentIntentId)).toMatchObject({ status: 'succeeded', failureCode: null, credited: false });
    await grantCredit(database.sql, { accountId, amountMicros: 10_000_000n, source: 'stripe', idempotencyKey: paymentIntentCreditKey(paymentIntentId) });
    const older = `pi_${crypto.randomUUID()}`;
    await recordTopUp(database.sql, { ...base, paymentIntentId: older, status: 'requires_payment_method', failureCode: 'card_declined' });
    const listed = await listTopUps(database.sql, accountId, 10);
    expect(listed.map((topUp) => [topUp.paymentIntentId, topUp.credited])).toEqual([[older, false], [paymentIntentId, true]]);
  });
});
