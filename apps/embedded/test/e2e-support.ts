// Small helpers shared by the end-to-end suites.
import type { RunningSystem } from './system.js';

export async function speech(baseUrl: string, key: string | undefined, body: unknown, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}/v1/audio/speech`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  });
}

export async function credits(baseUrl: string, key: string): Promise<{ balanceMicros: number; reservedMicros: number }> {
  const response = await fetch(`${baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  if (!response.ok) throw new Error(`credits: HTTP ${response.status}`);
  return (await response.json()) as { balanceMicros: number; reservedMicros: number };
}

export async function activity(baseUrl: string, key: string, limit = 100): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${baseUrl}/v1/credits/activity?limit=${limit}`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { rows: Array<Record<string, unknown>> }).rows;
}

/** Settlement is asynchronous (in-process or via the worker): wait until nothing is reserved. */
export async function settled(baseUrl: string, key: string, timeoutMs = 20_000): Promise<{ balanceMicros: number; reservedMicros: number }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const wallet = await credits(baseUrl, key);
    if (wallet.reservedMicros === 0 || Date.now() > deadline) return wallet;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Readiness after a dependency returns: the Redis client reconnects with backoff, so poll `/readyz` until it
 * answers 200 or the deadline passes; the last status is returned. */
export async function readyWithin(baseUrl: string, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status } = await fetch(`${baseUrl}/readyz`);
    if (status === 200 || Date.now() > deadline) return status;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function expectAudit(system: RunningSystem, email: string): Promise<Record<string, unknown>> {
  return system.admin('audit', '--email', email);
}

export function pcmStats(bytes: Buffer): { samples: number; rms: number } {
  let sum = 0;
  const samples = Math.floor(bytes.length / 2);
  for (let index = 0; index < samples; index += 1) {
    const sample = bytes.readInt16LE(index * 2);
    sum += sample * sample;
  }
  return { samples, rms: Math.sqrt(sum / Math.max(1, samples)) };
}
