// Registry resilience against the OpenAI fake: Retry-After within the attempt deadline, and the circuit breaker.

import { startFakeProvider, type FakeProviderServer } from './testing/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { CircuitOpenError, ProviderError } from './errors.js';
import { openAIProvider } from './openai/index.js';
import { createProviderRegistry, type ProviderRegistry, type ProviderRegistryConfig } from './registry.js';
import { collect, openAIInput, rejectionOf } from './__fixtures__/speech-helpers.js';

let fake: FakeProviderServer;
let registry: ProviderRegistry;

async function setUp(fakeOptions: Parameters<typeof startFakeProvider>[1] = {}, config: Partial<ProviderRegistryConfig> = {}) {
  fake = await startFakeProvider('openai', fakeOptions);
  registry = createProviderRegistry(
    { attemptTimeoutMs: 1000, maxAttempts: 3, backoffBaseMs: 5, providers: { openai: { apiKey: fake.apiKey, baseUrl: fake.baseUrl } }, ...config },
    [openAIProvider],
  );
}

const synthesize = (signal = new AbortController().signal) => registry.synthesize('openai', openAIInput(), { signal });

afterEach(async () => {
  await registry?.close();
  await fake?.close();
});

describe('registry and Retry-After', () => {
  it.each([429, 503])('waits at least the Retry-After of a %i before the next attempt when it fits the attempt deadline', async (status) => {
    await setUp({}, { attemptTimeoutMs: 1000, backoffBaseMs: 1 });
    fake.setBehavior({ status, times: 1, headers: { 'retry-after': '0.4' } });
    const started = Date.now();
    const result = await synthesize();
    expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    expect((await collect(result.audio)).length).toBeGreaterThan(0);
    expect(fake.requests.map((request) => request.status)).toEqual([status, 200]);
  });

  it('stops retrying and fails with the category when Retry-After exceeds the attempt deadline', async () => {
    await setUp({}, { attemptTimeoutMs: 1000, backoffBaseMs: 1 });
    fake.setBehavior({ status: 429, times: 1, headers: { 'retry-after': '5' } });
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ category: 'upstream_rate_limited', statusCode: 429, attempts: 1, retryAfterMs: 5000 });
    expect(fake.requests).toHaveLength(1);
  });

  it('ignores a Retry-After that is not a number or a date', async () => {
    await setUp({}, { attemptTimeoutMs: 1000, backoffBaseMs: 1 });
    fake.setBehavior({ status: 503, times: 1, headers: { 'retry-after': 'later please' } });
    const result = await synthesize();
    await collect(result.audio);
    expect(fake.requests.map((request) => request.status)).toEqual([503, 200]);
  });
});

describe('registry circuit breaker', () => {
  const breakerConfig = { maxAttempts: 1, breaker: { failureThreshold: 2, cooldownMs: 300 } };
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('opens after consecutive failures, refuses without calling upstream, then probes and closes', async () => {
    await setUp({}, breakerConfig);
    fake.setBehavior({ status: 500, times: 2 });
    await rejectionOf(synthesize());
    expect(registry.status()).toEqual([{ id: 'openai', state: 'available' }]);
    await rejectionOf(synthesize());
    expect(registry.status()).toEqual([{ id: 'openai', state: 'unavailable', reason: 'circuit_open' }]);
    const admission = registry.admit('openai');
    expect(admission).toMatchObject({ ok: false, rejection: { state: 'open' } });
    if (!admission.ok && admission.rejection.state === 'open') expect(admission.rejection.retryAfterMs).toBeLessThanOrEqual(300);
    expect(await rejectionOf(synthesize())).toBeInstanceOf(CircuitOpenError);
    expect(fake.requests).toHaveLength(2);

    await pause(320);
    expect(registry.status()).toEqual([{ id: 'openai', state: 'degraded', reason: 'circuit_half_open' }]);
    const probe = registry.admit('openai');
    expect(probe).toMatchObject({ ok: true, permit: { probe: true } });
    expect(registry.admit('openai')).toEqual({ ok: false, rejection: { state: 'half_open' } });
    const result = await registry.synthesize('openai', openAIInput(), { signal: new AbortController().signal, permit: probe.ok ? probe.permit : undefined });
    await collect(result.audio);
    expect(registry.status()).toEqual([{ id: 'openai', state: 'available' }]);
    expect(fake.requests).toHaveLength(3);
  });

  it('reopens when the probe fails, and counts each request once after its retries', async () => {
    await setUp({}, { ...breakerConfig, maxAttempts: 2, backoffBaseMs: 1 });
    fake.setBehavior({ status: 503 });
    await rejectionOf(synthesize());
    expect(registry.status()[0]!.state).toBe('available');
    await rejectionOf(synthesize());
    expect(fake.requests).toHaveLength(4);
    expect(registry.status()[0]).toMatchObject({ reason: 'circuit_open' });
    await pause(320);
    expect(((await rejectionOf(synthesize())) as ProviderError).category).toBe('upstream_server_error');
    expect(registry.status()[0]).toMatchObject({ state: 'unavailable', reason: 'circuit_open' });
  });

  it('counts neither client refusals nor a caller that gives up', async () => {
    await setUp({}, breakerConfig);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await rejectionOf(registry.synthesize('openai', openAIInput({ voice: 'robot' }), { signal: new AbortController().signal }));
    }
    fake.setBehavior({ hang: true });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const controller = new AbortController();
      const pending = synthesize(controller.signal);
      setTimeout(() => controller.abort(), 20);
      expect(((await rejectionOf(pending)) as Error).name).toBe('AbortError');
    }
    expect(registry.status()).toEqual([{ id: 'openai', state: 'available' }]);
  });
});
