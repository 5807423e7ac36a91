// Helpers for the per-key limits suite: keys with limits made through the real API, long streams that
// hold a concurrency slot until the test lets go, and polling with a deadline.
import { expect } from 'vitest';
import { api, type Person } from './accounts-support.js';
import { speech } from './e2e-support.js';

export const CARTESIA_VOICE = '694f9389-aac1-45b6-b726-9d9369183238';

export interface KeyLimitsRequest {
  maxConcurrency?: number;
  rateLimitPerMinute?: number;
  dailySpendCapMicros?: number;
  monthlySpendCapMicros?: number;
}

/** A key of the person's personal account, created with POST /v1/keys. */
export async function createKey(baseUrl: string, owner: Person, name: string, limits: KeyLimitsRequest = {}): Promise<{ id: string; key: string }> {
  const created = await api(baseUrl, '/v1/keys', owner.token, { method: 'POST', body: JSON.stringify({ name, ...limits }), organization: 'personal' });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { id: created.body.id, key: created.body.keyValue };
}

export function patchKey(baseUrl: string, owner: Person, id: string, changes: Record<string, unknown>) {
  return api(baseUrl, `/v1/keys/${id}`, owner.token, { method: 'PATCH', body: JSON.stringify(changes) });
}

export interface OpenStream {
  status: number;
  headers: Headers;
  body: Record<string, unknown> | undefined;
  /** Ends the stream from the client side (the router frees its slot when it notices). */
  close(): void;
}

/** A long paid stream (the slow fake Cartesia). A 200 keeps streaming until close(); anything else is read whole. */
export async function openLongStream(baseUrl: string, key: string): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await speech(baseUrl, key, { model: 'cartesia/sonic-3', voice: CARTESIA_VOICE, input: 'Hold this slot' }, { signal: controller.signal });
  if (response.status === 200) {
    // Read one chunk so the stream is certainly flowing, then leave the rest unread.
    const reader = response.body!.getReader();
    await reader.read();
    return { status: 200, headers: response.headers, body: undefined, close: () => controller.abort() };
  }
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown>, close: () => undefined };
}

/** Polls `attempt` until it returns true; resolves with the milliseconds it took, or fails at the deadline. */
export async function within(timeoutMs: number, attempt: () => Promise<boolean>, intervalMs = 50): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await attempt()) return Date.now() - started;
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

export function retryAfter(headers: Headers): number {
  const value = headers.get('retry-after');
  expect(value).toMatch(/^\d+$/);
  return Number(value);
}
