// Everything the double remembers: Stripe's objects by id, the 3-D Secure challenges in progress,
// and the events it has emitted (each one handed to the webhook dispatcher as it happens).
import type Stripe from 'stripe';
import { newId, nowSeconds, randomBase62 } from './ids.js';
import type { TestCard } from './test-cards.js';

export interface PaymentMethodRecord {
  object: Stripe.PaymentMethod;
  card: TestCard;
  /** Authenticated for future off-session use (what 4000 0025 0000 3155 looks at). */
  setUpForOffSession: boolean;
}

export interface Challenge {
  token: string;
  intentId: string;
  /** Where the browser goes when the challenge ends (the PaymentIntent's return_url, or back into Checkout). */
  returnUrl: string;
  checkoutSessionId?: string;
}

/** The request that caused an event, as events carry it: `request.id` and `request.idempotency_key`. */
export interface RequestOrigin {
  id: string | null;
  idempotencyKey: string | null;
}

export interface DoubleEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  data: { object: Record<string, unknown>; previous_attributes?: Record<string, unknown> };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

export class DoubleState {
  readonly customers = new Map<string, Stripe.Customer>();
  readonly paymentMethods = new Map<string, PaymentMethodRecord>();
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly checkoutSessions = new Map<string, Stripe.Checkout.Session>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly challenges = new Map<string, Challenge>();
  readonly events: DoubleEvent[] = [];

  constructor(
    readonly baseUrl: () => string,
    private readonly apiVersion: string,
    private readonly publish: (event: DoubleEvent) => void,
  ) {}

  /** Records an event with a snapshot of the object as it is now, and hands it to the webhooks. */
  emit(type: string, object: object, origin: RequestOrigin = { id: null, idempotencyKey: null }, previous?: Record<string, unknown>): DoubleEvent {
    const event: DoubleEvent = {
      id: newId('evt'),
      object: 'event',
      api_version: this.apiVersion,
      created: nowSeconds(),
      data: { object: structuredClone(object) as Record<string, unknown>, ...(previous ? { previous_attributes: previous } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: { id: origin.id, idempotency_key: origin.idempotencyKey },
      type,
    };
    this.events.push(event);
    this.publish(event);
    return event;
  }

  startChallenge(intentId: string, returnUrl: string, checkoutSessionId?: string): Challenge {
    const challenge: Challenge = { token: randomBase62(32), intentId, returnUrl, ...(checkoutSessionId ? { checkoutSessionId } : {}) };
    this.challenges.set(challenge.token, challenge);
    return challenge;
  }

  challengeUrl(challenge: Challenge): string {
    return `${this.baseUrl()}/3d_secure_2/hosted?intent=${challenge.intentId}&challenge=${challenge.token}`;
  }

  /** Expands `expand[]` paths one level deep (`setup_intent`, `payment_method`, …) as Stripe does. */
  expand<T extends object>(object: T, paths: string[]): T {
    const copy = structuredClone(object) as Record<string, unknown>;
    for (const path of paths) {
      const value = copy[path];
      if (typeof value !== 'string') continue;
      const found = this.lookUp(value);
      if (found) copy[path] = structuredClone(found);
    }
    return copy as T;
  }

  lookUp(id: string): object | undefined {
    if (id.startsWith('cus_')) return this.customers.get(id);
    if (id.startsWith('pm_')) return this.paymentMethods.get(id)?.object;
    if (id.startsWith('pi_')) return this.paymentIntents.get(id);
    if (id.startsWith('seti_')) return this.setupIntents.get(id);
    if (id.startsWith('cs_')) return this.checkoutSessions.get(id);
    if (id.startsWith('re_')) return this.refunds.get(id);
    if (id.startsWith('dp_')) return this.disputes.get(id);
    return undefined;
  }
}
