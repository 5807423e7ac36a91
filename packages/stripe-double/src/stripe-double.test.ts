// Fidelity: the official `stripe` library, pointed at the double, for every call the router makes
// (and the attach call tests use), with Stripe's documented outcomes for each test card.
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerThreeDSecure, enterCardInCheckout } from './hosted/hosted-page-driver.js';
import { startStripeDouble, type StripeDouble } from './start-stripe-double.js';

let double: StripeDouble;
let stripe: Stripe;

beforeAll(async () => {
  double = await startStripeDouble();
  stripe = new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 0 });
});
afterAll(() => double.close());

async function customerWith(token?: string) {
  const customer = await stripe.customers.create({ name: 'Org', metadata: { account_id: 'acct-1' } });
  const method = token ? await stripe.paymentMethods.attach(token, { customer: customer.id }) : undefined;
  return { customer, method };
}

function offSession(customer: string, paymentMethod: string, amount = 1000, idempotencyKey?: string) {
  return stripe.paymentIntents.create(
    { amount, currency: 'usd', customer, payment_method: paymentMethod, off_session: true, confirm: true, allowed_payment_method_types: ['card'], metadata: { k: 'v' } },
    idempotencyKey ? { idempotencyKey } : undefined,
  );
}

async function cardError(work: Promise<unknown>): Promise<Stripe.errors.StripeCardError> {
  const error = await work.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
  return error as Stripe.errors.StripeCardError;
}

describe('customers and saved cards', () => {
  it('creates and retrieves a customer', async () => {
    const { customer } = await customerWith();
    expect(customer).toMatchObject({ object: 'customer', name: 'Org', metadata: { account_id: 'acct-1' }, livemode: false });
    expect(customer.id).toMatch(/^cus_[A-Za-z0-9]{14}$/);
    expect((await stripe.customers.retrieve(customer.id)).id).toBe(customer.id);
  });

  it('attaches a pm_card_* token as a fresh PaymentMethod and lists cards newest first', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    expect(method!.id).toMatch(/^pm_/);
    expect(method!.id).not.toBe('pm_card_visa');
    expect(method).toMatchObject({ customer: customer.id, type: 'card', card: { brand: 'visa', last4: '4242' } });
    const second = await stripe.paymentMethods.attach('pm_card_mastercard', { customer: customer.id });
    const listed = await stripe.customers.listPaymentMethods(customer.id, { type: 'card', limit: 1 });
    expect(listed.data.map((item) => item.id)).toEqual([second.id]);
    expect(listed.has_more).toBe(true);
    expect((await stripe.paymentMethods.retrieve(method!.id)).customer).toBe(customer.id);
  });

  it('refuses to attach the chargeDeclined cards, but attaches chargeCustomerFail', async () => {
    const { customer } = await customerWith();
    const error = await cardError(stripe.paymentMethods.attach('pm_card_visa_chargeDeclined', { customer: customer.id }));
    expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline', statusCode: 402 });
    await expect(stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer: customer.id })).resolves.toMatchObject({ customer: customer.id });
  });

  it('answers unknown objects, parameters and keys the way Stripe does', async () => {
    await expect(stripe.paymentMethods.retrieve('pm_missing')).rejects.toMatchObject({ type: 'StripeInvalidRequestError', statusCode: 404, code: 'resource_missing' });
    await expect(stripe.customers.create({ nonsense: 'x' } as never)).rejects.toMatchObject({ statusCode: 400, param: 'nonsense', code: 'parameter_unknown' });
    // API 2026-09-30.endive replaced payment_method_types with allowed_payment_method_types.
    await expect(stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method_types: ['card'] } as never))
      .rejects.toMatchObject({ statusCode: 400, param: 'payment_method_types' });
    const wrongKey = new Stripe('sk_test_wrong', { ...double.clientSettings, maxNetworkRetries: 0 });
    await expect(wrongKey.customers.create({})).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
  });
});

describe('off-session PaymentIntents', () => {
  it('charges a good card at once', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    const intent = await offSession(customer.id, method!.id, 1234);
    expect(intent).toMatchObject({ object: 'payment_intent', status: 'succeeded', amount: 1234, amount_received: 1234, currency: 'usd', customer: customer.id, payment_method: method!.id, metadata: { k: 'v' } });
    expect(intent.latest_charge).toMatch(/^ch_/);
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_`));
  });

  it('declines chargeCustomerFail with card_declined and the intent back in requires_payment_method', async () => {
    const { customer, method } = await customerWith('pm_card_chargeCustomerFail');
    const error = await cardError(offSession(customer.id, method!.id));
    expect(error).toMatchObject({ code: 'card_declined', decline_code: 'generic_decline' });
    expect(error.charge).toMatch(/^ch_/);
    expect(error.payment_intent).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'card_declined', type: 'card_error' } });
    expect(error.payment_method?.id).toBe(method!.id);
  });

  it('fails an off-session payment that needs authentication with authentication_required, not requires_action', async () => {
    const { customer, method } = await customerWith('pm_card_authenticationRequiredOnSetup');
    const error = await cardError(offSession(customer.id, method!.id));
    expect(error).toMatchObject({ code: 'authentication_required', decline_code: 'authentication_required' });
    expect(error.payment_intent).toMatchObject({
      status: 'requires_payment_method', payment_method: null, next_action: null,
      last_payment_error: { code: 'authentication_required', payment_method: { id: method!.id } },
    });
  });

  it('recovers on-session with a return_url; afterwards the OnSetup card works off-session', async () => {
    const { customer, method } = await customerWith('pm_card_authenticationRequiredOnSetup');
    const failed = await cardError(offSession(customer.id, method!.id, 2000));
    const intentId = failed.payment_intent!.id;
    const confirmed = await stripe.paymentIntents.confirm(intentId, {
      payment_method: method!.id, return_url: 'https://console.example/return?x=1', setup_future_usage: 'off_session',
    });
    expect(confirmed.status).toBe('requires_action');
    expect(confirmed.next_action).toMatchObject({ type: 'redirect_to_url', redirect_to_url: { return_url: 'https://console.example/return?x=1' } });
    const back = new URL(await answerThreeDSecure(confirmed.next_action!.redirect_to_url!.url!, 'complete'));
    expect(back.origin + back.pathname).toBe('https://console.example/return');
    expect(Object.fromEntries(back.searchParams)).toMatchObject({ x: '1', payment_intent: intentId, redirect_status: 'succeeded' });
    expect(await stripe.paymentIntents.retrieve(intentId)).toMatchObject({ status: 'succeeded', amount_received: 2000, setup_future_usage: 'off_session' });
    await expect(offSession(customer.id, method!.id, 3000)).resolves.toMatchObject({ status: 'succeeded' });
    await expect(stripe.paymentIntents.confirm(intentId, { payment_method: method!.id }))
      .rejects.toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
  });

  it('keeps asking for authentication with pm_card_authenticationRequired, and reports a failed challenge', async () => {
    const { customer, method } = await customerWith('pm_card_authenticationRequired');
    const failed = await cardError(offSession(customer.id, method!.id));
    const confirmed = await stripe.paymentIntents.confirm(failed.payment_intent!.id, {
      payment_method: method!.id, return_url: 'https://console.example/return', setup_future_usage: 'off_session',
    });
    const back = new URL(await answerThreeDSecure(confirmed.next_action!.redirect_to_url!.url!, 'fail'));
    expect(back.searchParams.get('redirect_status')).toBe('failed');
    expect(await stripe.paymentIntents.retrieve(failed.payment_intent!.id)).toMatchObject({
      status: 'requires_payment_method', last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    const again = await stripe.paymentIntents.confirm(failed.payment_intent!.id, { payment_method: method!.id, return_url: 'https://console.example/return' });
    await answerThreeDSecure(again.next_action!.redirect_to_url!.url!, 'complete');
    expect((await stripe.paymentIntents.retrieve(again.id)).status).toBe('succeeded');
    const next = await cardError(offSession(customer.id, method!.id));
    expect(next.code).toBe('authentication_required');
  });

  it('refuses a card that belongs to another customer and amounts under 50 cents', async () => {
    const { method } = await customerWith('pm_card_visa');
    const { customer: other } = await customerWith();
    await expect(offSession(other.id, method!.id)).rejects.toMatchObject({ statusCode: 400, param: 'payment_method' });
    await expect(offSession(other.id, 'pm_card_visa', 49)).rejects.toMatchObject({ statusCode: 400, code: 'amount_too_small' });
  });
});

describe('idempotency keys', () => {
  it('replays the first answer, success or decline, without charging again', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    const first = await offSession(customer.id, method!.id, 1500, 'key-success');
    const second = await offSession(customer.id, method!.id, 1500, 'key-success');
    expect(second.id).toBe(first.id);
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(double.paymentIntents(customer.id)).toHaveLength(1);

    const { customer: failing, method: failingCard } = await customerWith('pm_card_chargeCustomerFail');
    const declined = await cardError(offSession(failing.id, failingCard!.id, 1000, 'key-decline'));
    const replayed = await cardError(offSession(failing.id, failingCard!.id, 1000, 'key-decline'));
    expect(replayed.payment_intent!.id).toBe(declined.payment_intent!.id);
    expect(double.paymentIntents(failing.id)).toHaveLength(1);
  });

  it('refuses the same key with other parameters (400 idempotency_error)', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    await offSession(customer.id, method!.id, 1000, 'key-params');
    const error = await offSession(customer.id, method!.id, 2000, 'key-params').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(error).toMatchObject({ statusCode: 400, rawType: 'idempotency_error' });
  });

  it('answers 409 to a concurrent duplicate, which the library retries into the same answer', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    double.setLatency(300);
    try {
      const body = new URLSearchParams({ amount: '1000', currency: 'usd', customer: customer.id, payment_method: method!.id, confirm: 'true', off_session: 'true' });
      const raw = () => fetch(`${double.baseUrl}/v1/payment_intents`, {
        method: 'POST', body, headers: { authorization: `Bearer ${double.secretKey}`, 'idempotency-key': 'key-race-raw' },
      });
      const statuses = (await Promise.all([raw(), raw()])).map((response) => response.status).sort();
      expect(statuses).toEqual([200, 409]);

      const retrying = new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 3 });
      const create = () => retrying.paymentIntents.create(
        { amount: 1000, currency: 'usd', customer: customer.id, payment_method: method!.id, confirm: true, off_session: true },
        { idempotencyKey: 'key-race-library' },
      );
      const [a, b] = await Promise.all([create(), create()]);
      expect(a.id).toBe(b.id);
      expect(double.paymentIntents(customer.id)).toHaveLength(2);
    } finally {
      double.setLatency(0);
    }
  });
});

describe('Checkout in setup mode', () => {
  async function session(customer: string) {
    return stripe.checkout.sessions.create({
      mode: 'setup', customer, currency: 'usd',
      success_url: 'https://console.example/added?session_id={CHECKOUT_SESSION_ID}', cancel_url: 'https://console.example/billing',
    });
  }

  it('saves a card entered on the hosted page and sends the browser to success_url', async () => {
    const { customer } = await customerWith();
    const created = await session(customer.id);
    expect(created).toMatchObject({ object: 'checkout.session', mode: 'setup', status: 'open' });
    expect(created.url).toMatch(new RegExp(`^${double.baseUrl}/c/pay/cs_test_`));
    const next = await enterCardInCheckout(created.url!, '4242 4242 4242 4242');
    expect(next).toBe(`https://console.example/added?session_id=${created.id}`);
    const done = await stripe.checkout.sessions.retrieve(created.id, { expand: ['setup_intent'] });
    expect(done.status).toBe('complete');
    const setupIntent = done.setup_intent as Stripe.SetupIntent;
    expect(setupIntent).toMatchObject({ object: 'setup_intent', status: 'succeeded', usage: 'off_session' });
    const cards = await stripe.customers.listPaymentMethods(customer.id, { type: 'card' });
    expect(cards.data.map((card) => card.id)).toEqual([setupIntent.payment_method]);
  });

  it('challenges a card that asks for authentication on setup; afterwards it works off-session', async () => {
    const { customer } = await customerWith();
    const created = await session(customer.id);
    const challenge = await enterCardInCheckout(created.url!, '4000002500003155');
    expect(challenge).toMatch(new RegExp(`^${double.baseUrl}/3d_secure_2/hosted\\?`));
    expect(await answerThreeDSecure(challenge, 'complete')).toBe(`https://console.example/added?session_id=${created.id}`);
    const [card] = (await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data;
    await expect(offSession(customer.id, card!.id)).resolves.toMatchObject({ status: 'succeeded' });
  });

  it('keeps the session open when the card is declined or authentication fails', async () => {
    const { customer } = await customerWith();
    const created = await session(customer.id);
    await expect(enterCardInCheckout(created.url!, '4000000000000002')).rejects.toThrow('Your card was declined.');
    const challenge = await enterCardInCheckout(created.url!, '4000002760003184');
    expect(await answerThreeDSecure(challenge, 'fail')).toBe(`${created.url}?error=authentication_failed`);
    expect((await stripe.checkout.sessions.retrieve(created.id)).status).toBe('open');
    expect((await stripe.customers.listPaymentMethods(customer.id, { type: 'card' })).data).toHaveLength(0);
  });
});

describe('refunds and disputes', () => {
  it('creates refunds that the API then serves, and disputes that close lost', async () => {
    const { customer, method } = await customerWith('pm_card_visa');
    const intent = await offSession(customer.id, method!.id, 5000);
    const refund = double.refund(intent.id, { amount: 1000, status: 'pending' });
    expect(await stripe.refunds.retrieve(refund.id)).toMatchObject({ object: 'refund', amount: 1000, status: 'pending', payment_intent: intent.id });
    double.settleRefund(refund.id, 'failed');
    expect((await stripe.refunds.retrieve(refund.id)).status).toBe('failed');
    const dispute = double.dispute(intent.id);
    double.closeDispute(dispute.id, 'lost');
    expect(double.events('charge.dispute.closed').at(-1)!.data.object).toMatchObject({ id: dispute.id, status: 'lost', payment_intent: intent.id, amount: 5000 });
    expect(double.events('refund.failed').at(-1)!.data.object).toMatchObject({ id: refund.id, status: 'failed' });
  });
});
