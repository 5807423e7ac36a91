// Card billing over HTTP through the real processes in both run modes (in the scaled-out mode the
// data plane forwards billing and the Stripe webhook to the control plane), with the Stripe double.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enterCardInCheckout, startStripeDouble, type StripeDouble } from '@voice-router/stripe-double';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, person, type Person } from './accounts-support.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('billing suite in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

async function addCard(baseUrl: string, someone: Person, number: string): Promise<string> {
  const started = await someone.console.submit('/console/billing', /\/console\/billing\/cards$/, {});
  expect(started.status).toBe(303);
  const back = new URL(await enterCardInCheckout(started.location!, number));
  expect(back.origin).toBe(baseUrl);
  expect((await someone.console.get(back.pathname + back.search)).location).toBe('/console/billing?notice=card-added');
  const methods = await api(baseUrl, '/v1/billing/methods', someone.token);
  return methods.body.methods[0].id as string;
}

const topUp = (baseUrl: string, token: string, body: Record<string, unknown>, organization?: string) =>
  api(baseUrl, '/v1/billing/topup', token, { method: 'POST', body: JSON.stringify({ idempotency_key: crypto.randomUUID(), ...body }), organization });

async function balance(baseUrl: string, token: string, expected: number): Promise<number> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const wallet = (await api(baseUrl, '/v1/credits', token)).body.balanceMicros as number;
    if (wallet === expected || Date.now() > deadline) return wallet;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(modes)('card billing over HTTP (%s mode)', (mode) => {
  let double: StripeDouble;
  let system: RunningSystem;
  let payer: Person;
  let card: string;

  beforeAll(async () => {
    double = await startStripeDouble();
    const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
    system = await startSystem({ mode, environment: { STRIPE_SECRET_KEY: double.secretKey, STRIPE_WEBHOOK_SECRET: secret, STRIPE_API_BASE_URL: double.baseUrl } });
    double.addWebhookEndpoint(`${system.baseUrl}/v1/billing/webhook`, { secret });
    payer = await person(system.baseUrl, `payer-${mode}@example.com`);
    card = await addCard(system.baseUrl, payer, '4242424242424242');
  });
  afterAll(async () => {
    await system?.close();
    await double?.close();
  });

  it('tops up within the bounds, once per idempotency key, and the webhook credits once however often it is replayed', async () => {
    for (const cents of [999, 100_001]) {
      expect(await topUp(system.baseUrl, payer.token, { amount_cents: cents, payment_method_id: card })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    }
    double.webhooks.pause();
    const key = crypto.randomUUID();
    const attempts = await Promise.all(Array.from({ length: 4 }, () => topUp(system.baseUrl, payer.token, { amount_cents: 1000, payment_method_id: card, idempotency_key: key })));
    expect(attempts.map((attempt) => attempt.status)).toEqual([200, 200, 200, 200]);
    const paymentIntentId = attempts[0]!.body.payment_intent_id as string;
    expect(new Set(attempts.map((attempt) => attempt.body.payment_intent_id))).toEqual(new Set([paymentIntentId]));
    expect((await topUp(system.baseUrl, payer.token, { amount_cents: 100_000, payment_method_id: card })).status).toBe(200);
    await double.webhooks.release('reverse');
    const succeeded = double.events('payment_intent.succeeded').find((event) => (event.data.object as { id: string }).id === paymentIntentId)!;
    expect(await double.webhooks.replay(succeeded, { times: 100, concurrency: 100 })).toEqual(Array(100).fill(200));
    expect(await balance(system.baseUrl, payer.token, 1_010_000_000)).toBe(1_010_000_000);
    expect(double.paymentIntents().filter((intent) => intent.amount === 1000)).toHaveLength(1);
    const audit = await system.admin('audit', '--email', payer.email);
    expect(audit).toMatchObject({ consistent: true });
  });

  it('refuses pk_ keys (403 scope_required) and a member of several organizations who does not choose (403)', async () => {
    const key = (await api(system.baseUrl, '/v1/keys', payer.token, { method: 'POST', body: JSON.stringify({ name: 'billing' }) })).body.keyValue as string;
    expect(await api(system.baseUrl, '/v1/billing/methods', key)).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    expect(await topUp(system.baseUrl, key, { amount_cents: 1000, payment_method_id: card })).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    const member = await person(system.baseUrl, `member-${mode}@example.com`);
    await system.admin('create-org', '--name', 'One', '--owner', member.email);
    await system.admin('create-org', '--name', 'Two', '--owner', member.email);
    expect(await api(system.baseUrl, '/v1/billing/methods', member.token)).toMatchObject({ status: 403, body: { error: 'organization_required' } });
    expect(await topUp(system.baseUrl, member.token, { amount_cents: 1000, payment_method_id: card })).toMatchObject({ status: 403, body: { error: 'organization_required' } });
    expect(await api(system.baseUrl, '/v1/billing/methods', member.token, { organization: 'personal' })).toEqual({ status: 200, body: { methods: [] } });
  });

  it('answers a bad webhook signature with 400 and credits nothing', async () => {
    const before = (await api(system.baseUrl, '/v1/credits', payer.token)).body.balanceMicros as number;
    const event = double.events('payment_intent.succeeded')[0]!;
    const response = await fetch(`${system.baseUrl}/v1/billing/webhook`, {
      method: 'POST', body: JSON.stringify({ ...event, id: 'evt_forged' }), headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: 'invalid_signature' });
    expect((await api(system.baseUrl, '/v1/credits', payer.token)).body.balanceMicros).toBe(before);
  });
});

describe('card billing without configuration', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ mode: 'embedded', environment: {} });
  });
  afterAll(() => system?.close());

  it('answers 503 billing_not_configured and the console has no Billing page', async () => {
    const someone = await person(system.baseUrl, 'unconfigured@example.com');
    expect(await api(system.baseUrl, '/v1/billing/methods', someone.token)).toMatchObject({ status: 503, body: { error: 'billing_not_configured' } });
    expect(await topUp(system.baseUrl, someone.token, { amount_cents: 1000, payment_method_id: 'pm_1' })).toMatchObject({ status: 503, body: { error: 'billing_not_configured' } });
    expect((await someone.console.get('/console/wallet')).html).not.toContain('/console/billing');
    expect((await someone.console.get('/console/billing')).status).toBe(404);
  });
});
