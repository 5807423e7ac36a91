// Webhook deliveries from the double, verified by the official library exactly as a receiver would.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeDouble, type StripeDouble } from '../start-stripe-double.js';
import { signPayload } from './signature.js';

interface Received {
  body: string;
  signature: string;
}

let double: StripeDouble;
let stripe: Stripe;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
let answerStatus = 200;

beforeAll(async () => {
  double = await startStripeDouble({ webhookRetryDelaysMs: [20, 20] });
  stripe = new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 0 });
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(request.headers['stripe-signature']) });
      response.writeHead(answerStatus).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await double.close();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('signed webhook deliveries', () => {
  it('signs with the Stripe-Signature scheme the library verifies, and fails verification with another secret', async () => {
    const endpoint = double.addWebhookEndpoint(receiverUrl, { enabledEvents: ['customer.created'] });
    received.length = 0;
    const customer = await stripe.customers.create({ name: 'signed' });
    await double.webhooks.idle();
    expect(received).toHaveLength(1);
    const event = stripe.webhooks.constructEvent(received[0]!.body, received[0]!.signature, endpoint.secret);
    expect(event).toMatchObject({ type: 'customer.created', object: 'event', livemode: false, data: { object: { id: customer.id } } });
    expect(event.id).toMatch(/^evt_/);
    expect(event.request?.idempotency_key).toMatch(/^stripe-node-retry-/);
    expect(() => stripe.webhooks.constructEvent(received[0]!.body, received[0]!.signature, 'whsec_other')).toThrow(Stripe.errors.StripeSignatureVerificationError);
    // The library's own test header and the double's agree byte for byte.
    const timestamp = 1_700_000_000;
    expect(signPayload('{"a":1}', endpoint.secret, timestamp)).toBe(
      stripe.webhooks.generateTestHeaderString({ payload: '{"a":1}', secret: endpoint.secret, timestamp }),
    );
    endpoint.enabledEvents.length = 0;
  });

  it('retries a delivery the receiver refused until it is accepted', async () => {
    const endpoint = double.addWebhookEndpoint(receiverUrl, { enabledEvents: ['customer.created'] });
    received.length = 0;
    answerStatus = 500;
    await stripe.customers.create({ name: 'retried' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    answerStatus = 200;
    await double.webhooks.idle();
    const attempts = double.webhooks.deliveries.filter((delivery) => delivery.url === receiverUrl && delivery.type === 'customer.created').slice(-2);
    expect(attempts.map((delivery) => delivery.status)).toEqual([500, 200]);
    expect(received.length).toBe(2);
    endpoint.enabledEvents.length = 0;
  });

  it('holds deliveries back and releases them in reverse, and replays one event many times at once', async () => {
    const endpoint = double.addWebhookEndpoint(receiverUrl, { enabledEvents: ['payment_intent.created', 'payment_intent.succeeded'] });
    received.length = 0;
    double.webhooks.pause();
    const customer = await stripe.customers.create({});
    const card = await stripe.paymentMethods.attach('pm_card_visa', { customer: customer.id });
    const intent = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', customer: customer.id, payment_method: card.id, confirm: true, off_session: true });
    expect(received).toHaveLength(0);
    await double.webhooks.release('reverse');
    const types = received.map((delivery) => (JSON.parse(delivery.body) as { type: string }).type);
    expect(types).toEqual(['payment_intent.succeeded', 'payment_intent.created']);

    received.length = 0;
    const succeeded = double.events('payment_intent.succeeded').find((event) => (event.data.object as { id: string }).id === intent.id)!;
    const statuses = await double.webhooks.replay(succeeded, { times: 20, concurrency: 20 });
    expect(statuses).toEqual(Array(20).fill(200));
    const ids = new Set(received.map((delivery) => stripe.webhooks.constructEvent(delivery.body, delivery.signature, endpoint.secret).id));
    expect([...ids]).toEqual([succeeded.id]);
    endpoint.enabledEvents.length = 0;
  });
});
