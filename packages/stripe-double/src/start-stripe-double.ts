// Starts the Stripe double on a local port and exposes what tests need: the settings to point the
// official library at it, webhook endpoints with their secrets, the events and requests it saw,
// and the after-the-fact controls (refunds, disputes).
import type Stripe from 'stripe';
import { closeDispute, disputePaymentIntent, refundPaymentIntent, settleRefund } from './controls.js';
import { randomBase62 } from './ids.js';
import { addressOf, createDoubleServer, type RecordedApiRequest } from './server.js';
import { DoubleState, type DoubleEvent } from './state.js';
import { WebhookDispatcher, type WebhookEndpoint } from './webhooks/dispatcher.js';

/** The API version stripe-node 23.x pins; events are rendered in it. */
export const DOUBLE_API_VERSION = '2026-10-28.endive';

export interface StripeDoubleOptions {
  host?: string;
  port?: number;
  secretKey?: string;
  /** Delays between webhook delivery attempts (default 50 ms, 250 ms, 1 s). */
  webhookRetryDelaysMs?: number[];
}

export interface StripeDouble {
  /** e.g. http://127.0.0.1:41234: the API is under /v1, hosted pages beside it. */
  baseUrl: string;
  host: string;
  port: number;
  secretKey: string;
  /** What `new Stripe(key, …)` needs to talk to the double. */
  clientSettings: { host: string; port: number; protocol: 'http' };
  webhooks: WebhookDispatcher;
  addWebhookEndpoint(url: string, options?: { secret?: string; enabledEvents?: string[] }): WebhookEndpoint;
  events(type?: string): DoubleEvent[];
  requests: RecordedApiRequest[];
  /** Every object of a kind, oldest first (for assertions such as "one charge"). */
  paymentIntents(customer?: string): Stripe.PaymentIntent[];
  customers(): Stripe.Customer[];
  /** Delays every API request (overlapping retries, timeouts). */
  setLatency(milliseconds: number): void;
  refund(paymentIntentId: string, options?: { amount?: number; status?: 'succeeded' | 'pending' }): Stripe.Refund;
  settleRefund(refundId: string, outcome: 'succeeded' | 'failed'): Stripe.Refund;
  dispute(paymentIntentId: string): Stripe.Dispute;
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Stripe.Dispute;
  close(): Promise<void>;
}

export async function startStripeDouble(options: StripeDoubleOptions = {}): Promise<StripeDouble> {
  const host = options.host ?? '127.0.0.1';
  const secretKey = options.secretKey ?? `sk_test_${randomBase62(24)}`;
  const webhooks = new WebhookDispatcher({ retryDelaysMs: options.webhookRetryDelaysMs });
  let baseUrl = '';
  const state = new DoubleState(() => baseUrl, DOUBLE_API_VERSION, (event) => webhooks.publish(event));
  const requests: RecordedApiRequest[] = [];
  let latencyMs = 0;
  const server = createDoubleServer({ state, secretKey, apiVersion: DOUBLE_API_VERSION, latencyMs: () => latencyMs, requests });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = addressOf(server).port;
  baseUrl = `http://${host}:${port}`;
  return {
    baseUrl,
    host,
    port,
    secretKey,
    clientSettings: { host, port, protocol: 'http' },
    webhooks,
    addWebhookEndpoint: (url, endpointOptions) => webhooks.addEndpoint(url, endpointOptions),
    events: (type) => state.events.filter((event) => !type || event.type === type),
    requests,
    paymentIntents: (customer) => [...state.paymentIntents.values()].filter((intent) => !customer || intent.customer === customer),
    customers: () => [...state.customers.values()],
    setLatency(milliseconds) {
      latencyMs = milliseconds;
    },
    refund: (paymentIntentId, refundOptions) => refundPaymentIntent(state, paymentIntentId, refundOptions),
    settleRefund: (refundId, outcome) => settleRefund(state, refundId, outcome),
    dispute: (paymentIntentId) => disputePaymentIntent(state, paymentIntentId),
    closeDispute: (disputeId, outcome) => closeDispute(state, disputeId, outcome),
    async close() {
      webhooks.close();
      await webhooks.idle();
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
