// POST /v1/billing/webhook: signatures checked by the official library on the raw body, one credit
// per PaymentIntent whatever the delivery pattern, refunds and lost disputes debited once.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditWallet, findBillingCustomer, listActivity, reserveCredit } from '@voice-router/ledger';
import { signPayload, type DoubleEvent } from '@voice-router/stripe-double';
import { announceSkip, postgresUrl } from '@voice-router/test-support';
import {
  addCardThroughConsole, balanceOf, methodsOf, newPerson, settledBalance, startHarness, topUp, type Harness, type Person,
} from './billing-harness.js';

const modes = postgresUrl() ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
if (!postgresUrl()) announceSkip('billing webhook on PostgreSQL', 'DATABASE_URL is not set');

describe.each(modes)('the Stripe webhook (%s)', (mode) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(mode);
  });
  afterAll(() => harness?.close());

  async function payingPerson(): Promise<{ person: Person; card: string }> {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const [card] = await methodsOf(harness, person);
    return { person, card: card!.id };
  }

  async function charge(person: Person, card: string, cents: number): Promise<string> {
    const answer = await topUp(harness, person, { amount_cents: cents, payment_method_id: card });
    if (answer.status !== 200) throw new Error(`top-up: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.payment_intent_id as string;
  }

  const eventFor = (type: string, objectId: string): DoubleEvent =>
    harness.double.events(type).find((event) => (event.data.object as { id: string }).id === objectId)!;

  function post(body: string, signature?: string) {
    return fetch(harness.webhookUrl, {
      method: 'POST', body, headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    });
  }

  it('refuses a missing, wrong or stale signature and a tampered body, and changes nothing', async () => {
    const { person, card } = await payingPerson();
    harness.double.webhooks.pause();
    const paymentIntentId = await charge(person, card, 2000);
    const event = eventFor('payment_intent.succeeded', paymentIntentId);
    const payload = JSON.stringify(event);
    expect(payload).toContain('"amount_received":2000');
    const answers = [
      await post(payload),
      await post(payload, signPayload(payload, 'whsec_not_the_secret')),
      await post(payload, signPayload(payload, harness.webhookSecret, Math.floor(Date.now() / 1000) - 3600)),
      await post(payload.replace('"amount_received":2000', '"amount_received":900000'), signPayload(payload, harness.webhookSecret)),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject({ error: 'invalid_signature' });
    }
    expect(await balanceOf(harness, person.accountId)).toBe(0n);
    const garbage = 'not json at all';
    expect((await post(garbage, signPayload(garbage, harness.webhookSecret))).status).toBe(400);
    await harness.double.webhooks.release();
    expect(await settledBalance(harness, person.accountId)).toBe(20_000_000n);
  });

  it('credits once when payment_intent.succeeded is replayed 100 times, concurrently and out of order', async () => {
    const { person, card } = await payingPerson();
    harness.double.webhooks.pause();
    const paymentIntentId = await charge(person, card, 4200);
    await harness.double.webhooks.release('reverse');
    const succeeded = eventFor('payment_intent.succeeded', paymentIntentId);
    const statuses = await harness.double.webhooks.replay(succeeded, { times: 100, concurrency: 100 });
    expect(statuses).toEqual(Array(100).fill(200));
    expect(await settledBalance(harness, person.accountId)).toBe(42_000_000n);
    const credits = (await listActivity(harness.database.sql, person.accountId, 100)).filter((row) => row.kind === 'top-up');
    expect(credits).toHaveLength(1);
    expect((await auditWallet(harness.database.sql, person.accountId)).consistent).toBe(true);
  });

  it('answers 200 and ignores event types it does not act on, and payments of unknown customers', async () => {
    const customer = await harness.stripe.customers.create({ name: 'not ours' });
    const event = harness.double.events('customer.created').find((item) => (item.data.object as { id: string }).id === customer.id)!;
    const payload = JSON.stringify(event);
    const answer = await post(payload, signPayload(payload, harness.webhookSecret));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ received: true, ignored: true });

    const card = await harness.stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const foreign = await harness.stripe.paymentIntents.create({ amount: 5000, currency: 'usd', customer: customer.id, payment_method: card.id, confirm: true, off_session: true });
    await harness.double.webhooks.idle();
    const delivered = harness.double.webhooks.deliveries.filter((delivery) => delivery.type === 'payment_intent.succeeded' && delivery.eventId === eventFor('payment_intent.succeeded', foreign.id).id);
    expect(delivered.map((delivery) => delivery.status)).toEqual([200]);
    expect(harness.logs.join('')).toContain('payment from an unknown customer ignored');
  });

  it('debits a refund once, gives back a refund that failed, and debits a lost dispute', async () => {
    const { person, card } = await payingPerson();
    const paymentIntentId = await charge(person, card, 5000);
    expect(await settledBalance(harness, person.accountId)).toBe(50_000_000n);

    const refund = harness.double.refund(paymentIntentId, { amount: 1000 });
    expect(await settledBalance(harness, person.accountId)).toBe(40_000_000n);
    await harness.double.webhooks.replay(eventFor('refund.created', refund.id), { times: 10, concurrency: 10 });
    expect(await balanceOf(harness, person.accountId)).toBe(40_000_000n);

    const pending = harness.double.refund(paymentIntentId, { amount: 500, status: 'pending' });
    expect(await settledBalance(harness, person.accountId)).toBe(35_000_000n);
    harness.double.settleRefund(pending.id, 'failed');
    expect(await settledBalance(harness, person.accountId)).toBe(40_000_000n);

    const won = harness.double.dispute(paymentIntentId);
    harness.double.closeDispute(won.id, 'won');
    expect(await settledBalance(harness, person.accountId)).toBe(40_000_000n);
    // A dispute covers what was not refunded: $40.00.
    const lost = harness.double.dispute(paymentIntentId);
    expect(lost.amount).toBe(4000);
    harness.double.closeDispute(lost.id, 'lost');
    expect(await settledBalance(harness, person.accountId)).toBe(0n);
    const kinds = (await listActivity(harness.database.sql, person.accountId, 10)).map((row) => [row.kind, row.microsDelta]);
    expect(kinds).toEqual([
      ['refund', -40_000_000n], ['top-up', 5_000_000n], ['refund', -5_000_000n], ['refund', -10_000_000n], ['top-up', 50_000_000n],
    ]);
    expect((await auditWallet(harness.database.sql, person.accountId)).consistent).toBe(true);
  });

  it('credits first when a refund arrives before the payment it refunds', async () => {
    const { person, card } = await payingPerson();
    harness.double.webhooks.pause();
    const paymentIntentId = await charge(person, card, 3000);
    harness.double.refund(paymentIntentId, { amount: 3000 });
    await harness.double.webhooks.release('reverse');
    expect(await settledBalance(harness, person.accountId)).toBe(0n);
    const rows = (await listActivity(harness.database.sql, person.accountId, 10)).map((row) => [row.kind, row.microsDelta]);
    expect(rows).toEqual([['refund', -30_000_000n], ['top-up', 30_000_000n]]);
  });

  it('never takes what is reserved: a refund larger than the spendable balance leaves a logged shortfall', async () => {
    const { person, card } = await payingPerson();
    const paymentIntentId = await charge(person, card, 2000);
    expect(await settledBalance(harness, person.accountId)).toBe(20_000_000n);
    const reserved = await reserveCredit(harness.database.sql, {
      reservationId: crypto.randomUUID(), accountId: person.accountId, apiKeyId: null, amountMicros: 15_000_000n, provider: 'openai', model: 'tts-1', characters: 1,
    });
    expect(reserved.ok).toBe(true);
    harness.double.refund(paymentIntentId);
    expect(await settledBalance(harness, person.accountId)).toBe(15_000_000n);
    const [row] = await listActivity(harness.database.sql, person.accountId, 1);
    expect(row).toMatchObject({ kind: 'refund', microsDelta: -5_000_000n, metadata: { shortfallMicros: '15000000' } });
    expect(harness.logs.join('')).toContain('shortfall left for the operator');
    const customer = await findBillingCustomer(harness.database.sql, person.accountId);
    expect(customer).toMatch(/^cus_/);
  });
});

describe('the webhook without configuration', () => {
  it('answers 503 billing_not_configured', async () => {
    const unconfigured = await startHarness('pglite', { configured: false });
    try {
      const answer = await fetch(unconfigured.webhookUrl, { method: 'POST', body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
      expect(answer.status).toBe(503);
      expect(await answer.json()).toMatchObject({ error: 'billing_not_configured' });
    } finally {
      await unconfigured.close();
    }
  });
});
