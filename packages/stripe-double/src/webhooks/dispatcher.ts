// Delivers events to webhook endpoints as Stripe does: a signed JSON POST per event and endpoint,
// retried with backoff until the endpoint answers 2xx. Tests may pause delivery and release the
// queue in any order, or replay one event many times at once (Stripe gives no ordering or
// exactly-once guarantee, so a receiver must cope with both).
import { randomBytes } from 'node:crypto';
import type { DoubleEvent } from '../state.js';
import { signPayload } from './signature.js';

export interface WebhookEndpoint {
  id: string;
  url: string;
  secret: string;
  /** Event types to send; `*` for all. */
  enabledEvents: string[];
}

export interface Delivery {
  eventId: string;
  type: string;
  url: string;
  attempt: number;
  /** HTTP status, or 0 when the connection failed. */
  status: number;
  at: Date;
}

export type ReleaseOrder = 'as-created' | 'reverse' | 'shuffle';

interface Pending {
  event: DoubleEvent;
  endpoint: WebhookEndpoint;
}

export interface DispatcherOptions {
  /** Delays between attempts (Stripe's are hours; tests want milliseconds). */
  retryDelaysMs?: number[];
}

export class WebhookDispatcher {
  readonly endpoints: WebhookEndpoint[] = [];
  readonly deliveries: Delivery[] = [];
  private paused = false;
  private queue: Pending[] = [];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly retryDelaysMs: number[];
  private closed = false;

  constructor(options: DispatcherOptions = {}) {
    this.retryDelaysMs = options.retryDelaysMs ?? [50, 250, 1_000];
  }

  addEndpoint(url: string, options: { secret?: string; enabledEvents?: string[] } = {}): WebhookEndpoint {
    const endpoint: WebhookEndpoint = {
      id: `we_${randomBytes(12).toString('hex')}`,
      url,
      secret: options.secret ?? `whsec_${randomBytes(24).toString('base64url')}`,
      enabledEvents: options.enabledEvents ?? ['*'],
    };
    this.endpoints.push(endpoint);
    return endpoint;
  }

  private subscribers(type: string): WebhookEndpoint[] {
    return this.endpoints.filter((endpoint) => endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type));
  }

  publish(event: DoubleEvent): void {
    for (const endpoint of this.subscribers(event.type)) {
      if (this.paused) this.queue.push({ event, endpoint });
      else this.track(this.deliverWithRetries(event, endpoint));
    }
  }

  /** Holds deliveries back until release(). */
  pause(): void {
    this.paused = true;
  }

  /** Sends what was held back, in the order asked for, all at once, and resumes normal delivery. */
  async release(order: ReleaseOrder = 'as-created'): Promise<void> {
    this.paused = false;
    const held = this.queue;
    this.queue = [];
    if (order === 'reverse') held.reverse();
    if (order === 'shuffle') {
      for (let index = held.length - 1; index > 0; index--) {
        const other = Math.floor(Math.random() * (index + 1));
        [held[index], held[other]] = [held[other]!, held[index]!];
      }
    }
    await Promise.all(held.map(({ event, endpoint }) => this.track(this.deliverWithRetries(event, endpoint))));
  }

  /** Delivers one event `times` more times to every endpoint subscribed to it, `concurrency` at a time; returns the statuses. */
  async replay(event: DoubleEvent, options: { times: number; concurrency?: number }): Promise<number[]> {
    const statuses: number[] = [];
    const jobs: Array<() => Promise<void>> = [];
    for (const endpoint of this.subscribers(event.type)) {
      for (let index = 0; index < options.times; index++) {
        jobs.push(async () => {
          statuses.push(await this.deliverOnce(event, endpoint, 1));
        });
      }
    }
    const concurrency = Math.max(1, options.concurrency ?? jobs.length);
    const workers = Array.from({ length: Math.min(concurrency, jobs.length) }, async () => {
      for (let job = jobs.shift(); job; job = jobs.shift()) await job();
    });
    await this.track(Promise.all(workers));
    return statuses;
  }

  /** Resolves when nothing is being delivered or waiting for a retry. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  close(): void {
    this.closed = true;
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work)).catch(() => undefined);
    return work;
  }

  private async deliverWithRetries(event: DoubleEvent, endpoint: WebhookEndpoint): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const status = await this.deliverOnce(event, endpoint, attempt);
      if ((status >= 200 && status < 300) || this.closed) return;
      const delay = this.retryDelaysMs[attempt - 1];
      if (delay === undefined) return;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  private async deliverOnce(event: DoubleEvent, endpoint: WebhookEndpoint, attempt: number): Promise<number> {
    // Stripe sends pretty-printed JSON; the signature covers these exact bytes.
    const payload = JSON.stringify(event, null, 2);
    let status = 0;
    try {
      const response = await fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json; charset=utf-8',
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
          'cache-control': 'no-cache',
          accept: '*/*; q=0.5, application/xml',
          'stripe-signature': signPayload(payload, endpoint.secret),
        },
        body: payload,
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      await response.arrayBuffer();
    } catch {
      status = 0;
    }
    this.deliveries.push({ eventId: event.id, type: event.type, url: endpoint.url, attempt, status, at: new Date() });
    return status;
  }
}
