// GET /v1/billing/methods and POST /v1/billing/topup through HTTP against the Stripe double, with
// cards added through the console's Checkout flow and the wallet credited by the real webhook.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, findBillingCustomer, listActivity } from '@voice-router/ledger';
import { answerThreeDSecure } from '@voice-router/stripe-double';
import { announceSkip, postgresUrl } from '@voice-router/test-support';
import {
  addCardThroughConsole, api, apiKeyFor, balanceOf, consoleRequest, methodsOf, newPerson, settledBalance, startHarness, topUp,
  type Harness,
} from './billing-harness.js';

const modes = postgresUrl() ? (['pglite', 'postgres'] as const) : (['pglite'] as const);
if (!postgresUrl()) announceSkip('billing API on PostgreSQL', 'DATABASE_URL is not set');

describe.each(modes)('card billing through the API (%s)', (mode) => {
  let harness: Harness;
  let unconfigured: Harness;
  beforeAll(async () => {
    harness = await startHarness(mode);
    unconfigured = await startHarness('pglite', { configured: false });
  });
  afterAll(async () => {
    await harness?.close();
    await unconfigured?.close();
  });

  it('lists no cards and creates no customer until a card is added in the console', async () => {
    const person = await newPerson(harness);
    const customersBefore = harness.double.customers().length;
    expect(await methodsOf(harness, person)).toEqual([]);
    expect(harness.double.customers()).toHaveLength(customersBefore);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const methods = await methodsOf(harness, person);
    expect(methods).toEqual([{ id: expect.stringMatching(/^pm_/), brand: 'visa', last4: '4242', expMonth: 12, expYear: expect.any(Number) }]);
    const customer = await findBillingCustomer(harness.database.sql, person.accountId);
    expect(harness.double.customers().find((item) => item.id === customer)?.metadata).toEqual({ account_id: person.accountId });
  });

  it('tops up off-session; the webhook credits the wallet once', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '5555555555554444');
    const [card] = await methodsOf(harness, person);
    const charged = await topUp(harness, person, { amount_cents: 2500, payment_method_id: card!.id });
    expect(charged).toEqual({ status: 200, body: { ok: true, payment_intent_id: expect.stringMatching(/^pi_/), amount_cents: 2500 } });
    expect(await settledBalance(harness, person.accountId)).toBe(25_000_000n);
    const [row] = await listActivity(harness.database.sql, person.accountId, 1);
    expect(row).toMatchObject({ kind: 'top-up', source: 'stripe', microsDelta: 25_000_000n, metadata: { paymentIntentId: charged.body.payment_intent_id, amountCents: 2500 } });
  });

  it('charges once for a top-up retried with the same idempotency_key, even concurrently', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const [card] = await methodsOf(harness, person);
    const body = { amount_cents: 1000, payment_method_id: card!.id, idempotency_key: crypto.randomUUID() };
    const answers = [await topUp(harness, person, body), ...(await Promise.all(Array.from({ length: 5 }, () => topUp(harness, person, body))))];
    expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
    expect(new Set(answers.map((answer) => answer.body.payment_intent_id)).size).toBe(1);
    const customer = await findBillingCustomer(harness.database.sql, person.accountId);
    expect(harness.double.paymentIntents(customer!)).toHaveLength(1);
    expect(await settledBalance(harness, person.accountId)).toBe(10_000_000n);
    const reused = await topUp(harness, person, { ...body, amount_cents: 2000 });
    expect(reused).toMatchObject({ status: 400, body: { error: 'idempotency_key_reused' } });
  });

  it('refuses 999 and 100001 cents and accepts 1000 and 100000', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const [card] = await methodsOf(harness, person);
    for (const cents of [999, 100_001, 10.5, -1000]) {
      expect(await topUp(harness, person, { amount_cents: cents, payment_method_id: card!.id })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    }
    for (const cents of [1000, 100_000]) {
      expect((await topUp(harness, person, { amount_cents: cents, payment_method_id: card!.id })).status).toBe(200);
    }
    expect(await settledBalance(harness, person.accountId)).toBe(1_010_000_000n);
  });

  it('answers a declined card with 402 card_declined and the decline code, never Stripe\'s message', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4000000000000341');
    const [card] = await methodsOf(harness, person);
    const declined = await topUp(harness, person, { amount_cents: 5000, payment_method_id: card!.id });
    expect(declined).toEqual({
      status: 402, body: { error: 'card_declined', details: expect.stringContaining('generic_decline'), decline_code: 'generic_decline' },
    });
    expect(JSON.stringify(declined.body)).not.toContain('Your card was declined');
    expect(harness.logs.join('')).not.toContain('Your card was declined');
    expect(await settledBalance(harness, person.accountId)).toBe(0n);
  });

  it('sends a card that needs 3-D Secure to the console, and after the challenge tops up off-session without one', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    // A card saved without being set up for off-session use (as Stripe's OnSetup test card is when attached directly).
    const customer = (await findBillingCustomer(harness.database.sql, person.accountId))!;
    const card = await harness.stripe.paymentMethods.attach('pm_card_authenticationRequiredOnSetup', { customer });
    const needs = await topUp(harness, person, { amount_cents: 3000, payment_method_id: card.id });
    expect(needs).toMatchObject({ status: 402, body: { error: 'stripe_3ds_required' } });
    const url = new URL(needs.body.url);
    expect(url.origin).toBe(harness.baseUrl);
    expect(url.pathname).toMatch(/^\/console\/billing\/authenticate\/pi_/);

    const page = await consoleRequest(harness, person, url.pathname);
    expect(page.status).toBe(200);
    expect(page.html).toContain('$30.00');
    expect(page.html).toContain('visa ending 3155');
    expect(page.contentSecurityPolicy).toContain(`form-action 'self' https://checkout.stripe.com https://hooks.stripe.com ${harness.double.baseUrl}`);
    const toBank = await consoleRequest(harness, person, url.pathname, {});
    expect(toBank.status).toBe(303);
    const back = await answerThreeDSecure(toBank.location!, 'complete');
    const result = await consoleRequest(harness, person, back);
    expect(result.status).toBe(200);
    expect(result.html).toContain('Payment of $30.00 confirmed');
    expect(await settledBalance(harness, person.accountId)).toBe(30_000_000n);

    const again = await topUp(harness, person, { amount_cents: 1500, payment_method_id: card.id });
    expect(again).toMatchObject({ status: 200, body: { ok: true } });
    expect(await settledBalance(harness, person.accountId)).toBe(45_000_000n);
  });

  it('reports a failed challenge and charges nothing', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const customer = (await findBillingCustomer(harness.database.sql, person.accountId))!;
    const card = await harness.stripe.paymentMethods.attach('pm_card_authenticationRequired', { customer });
    const needs = await topUp(harness, person, { amount_cents: 2000, payment_method_id: card.id });
    const path = new URL(needs.body.url).pathname;
    const toBank = await consoleRequest(harness, person, path, {});
    const result = await consoleRequest(harness, person, await answerThreeDSecure(toBank.location!, 'fail'));
    expect(result.html).toContain('Your bank did not confirm the payment');
    expect(result.html).toContain('Try again');
    expect(await settledBalance(harness, person.accountId)).toBe(0n);
    // Another member of nothing cannot open someone else's payment.
    const stranger = await newPerson(harness);
    expect((await consoleRequest(harness, stranger, path)).status).toBe(404);
  });

  it('refuses pk_ keys, cards of other accounts, and makes a member of several organizations choose', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const [card] = await methodsOf(harness, person);
    const key = await apiKeyFor(harness, person);
    expect(await api(harness, '/v1/billing/methods', { token: key })).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    expect(await topUp(harness, person, { amount_cents: 1000, payment_method_id: card!.id }, key)).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    expect(await api(harness, '/v1/billing/methods')).toMatchObject({ status: 401, body: { error: 'unauthorized' } });

    const other = await newPerson(harness);
    expect(await topUp(harness, other, { amount_cents: 1000, payment_method_id: card!.id })).toMatchObject({ status: 400, body: { error: 'invalid_payment_method' } });
    await addCardThroughConsole(harness, other, '4242424242424242');
    expect(await topUp(harness, other, { amount_cents: 1000, payment_method_id: card!.id })).toMatchObject({ status: 400, body: { error: 'invalid_payment_method' } });

    const first = await createOrganization(harness.database.prisma, { name: 'First', ownerUserId: person.userId });
    await createOrganization(harness.database.prisma, { name: 'Second', ownerUserId: person.userId });
    expect(await api(harness, '/v1/billing/methods', { token: person.token })).toMatchObject({ status: 403, body: { error: 'organization_required' } });
    expect(await topUp(harness, person, { amount_cents: 1000, payment_method_id: card!.id })).toMatchObject({ status: 403, body: { error: 'organization_required' } });
    expect(await api(harness, '/v1/billing/methods', { token: person.token, organization: first.accountId })).toEqual({ status: 200, body: { methods: [] } });
    const personal = await topUp(harness, person, { amount_cents: 1000, payment_method_id: card!.id }, person.token);
    expect(personal.status).toBe(403);
    const chosen = await api(harness, '/v1/billing/topup', {
      token: person.token, organization: 'personal', body: { amount_cents: 1000, payment_method_id: card!.id, idempotency_key: crypto.randomUUID() },
    });
    expect(chosen.status).toBe(200);
  });

  it('takes the console\'s own session token as a bearer for a top-up', async () => {
    const person = await newPerson(harness);
    await addCardThroughConsole(harness, person, '4242424242424242');
    const [card] = await methodsOf(harness, person);
    expect((await topUp(harness, person, { amount_cents: 1000, payment_method_id: card!.id }, person.consoleToken)).status).toBe(200);
    expect(await settledBalance(harness, person.accountId)).toBe(10_000_000n);
  });

  it('answers 503 billing_not_configured without a Stripe key, and the console has no Billing page', async () => {
    const person = await newPerson(unconfigured);
    expect(await api(unconfigured, '/v1/billing/methods', { token: person.token })).toMatchObject({ status: 503, body: { error: 'billing_not_configured' } });
    expect(await topUp(unconfigured, person, { amount_cents: 1000, payment_method_id: 'pm_x' })).toMatchObject({ status: 503, body: { error: 'billing_not_configured' } });
    const wallet = await consoleRequest(unconfigured, person, '/console/wallet');
    expect(wallet.status).toBe(200);
    expect(wallet.html).not.toContain('/console/billing');
    expect((await consoleRequest(unconfigured, person, '/console/billing')).status).toBe(404);
    expect(await balanceOf(unconfigured, person.accountId)).toBe(0n);
  });
});
