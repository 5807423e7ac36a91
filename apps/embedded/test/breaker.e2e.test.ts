// The circuit breaker end to end: real router processes, the OpenAI fake told to fail, and the wallet
// checked at each step. Breakers are per process, so requests go to one data plane (the first replica).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { activity, settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('the circuit breaker suite in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const THRESHOLD = 3;
const COOLDOWN_MS = 1500;
const BODY = { model: 'openai/tts-1', voice: 'alloy', input: 'Breaker test' };
const COST = 'Breaker test'.length * 15;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(modes)('circuit breaker end to end (%s mode)', (mode) => {
  let fake: FakeProviderServer;
  let system: RunningSystem;
  let baseUrl: string;
  let user: { key: string; email: string; accountId: string };

  const openaiStatus = async (url = baseUrl) => {
    const body = (await (await fetch(`${url}/v1/status`, { headers: { authorization: `Bearer ${user.key}` } })).json()) as { providers: Array<{ id: string; state: string; reason?: string }> };
    return body.providers.find((provider) => provider.id === 'openai');
  };

  /** Fails THRESHOLD requests upstream (each voided), which opens the breaker. */
  async function openBreaker(): Promise<void> {
    fake.setBehavior({ status: 500 });
    for (let failure = 0; failure < THRESHOLD; failure += 1) {
      const response = await speech(baseUrl, user.key, BODY);
      expect(response.status).toBe(502);
      expect(await response.json()).toMatchObject({ error: 'upstream_error', code: 'upstream_server_error' });
    }
  }

  beforeAll(async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 4096 });
    system = await startSystem({
      mode,
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrl,
        UPSTREAM_MAX_ATTEMPTS: '1', UPSTREAM_ATTEMPT_TIMEOUT_MS: '3000',
        BREAKER_FAILURE_THRESHOLD: String(THRESHOLD), BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
      },
    });
    baseUrl = system.baseUrls[0]!;
    user = await fundedKey(system, '1');
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it(`opens after ${THRESHOLD} upstream failures and then refuses with 503 before reserving anything`, async () => {
    const before = await settled(baseUrl, user.key);
    await openBreaker();
    expect(await settled(baseUrl, user.key)).toEqual(before);
    const rowsBefore = (await activity(baseUrl, user.key, 100)).length;
    const upstreamCalls = fake.requests.length;

    const refused = await speech(baseUrl, user.key, BODY);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-router-breaker-state')).toBe('open');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(COOLDOWN_MS / 1000));
    expect(await refused.json()).toMatchObject({ error: 'provider_unavailable' });

    // Nothing went upstream and nothing was reserved: not even a reserve/void pair in the ledger.
    expect(fake.requests.length).toBe(upstreamCalls);
    expect((await activity(baseUrl, user.key, 100)).length).toBe(rowsBefore);
    expect(await settled(baseUrl, user.key)).toEqual(before);
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'unavailable', reason: 'circuit_open' });
    // Other providers are unaffected.
    const local = await speech(baseUrl, user.key, { model: 'local/espeak-ng', voice: 'en-us', input: 'Still speaking' });
    expect(local.status).toBe(200);
    await local.arrayBuffer();
    if (mode === 'scaled') {
      // Breakers are per process: the other replica has seen no failure.
      expect(await openaiStatus(system.baseUrls[1]!)).toEqual({ id: 'openai', state: 'available' });
    }
  });

  it('after the cooldown lets one probe through, refuses a concurrent request as half_open, and closes on the probe\'s audio', async () => {
    await pause(COOLDOWN_MS + 100);
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'degraded', reason: 'circuit_half_open' });
    const before = await settled(baseUrl, user.key);
    fake.setBehavior({ firstByteDelayMs: 1000 });
    const upstreamCalls = fake.requests.length;
    const probe = speech(baseUrl, user.key, BODY);
    while (fake.requests.length === upstreamCalls) await pause(10);

    const concurrent = await speech(baseUrl, user.key, BODY);
    expect(concurrent.status).toBe(503);
    expect(concurrent.headers.get('x-router-breaker-state')).toBe('half_open');
    expect(await concurrent.json()).toMatchObject({ error: 'provider_unavailable' });
    expect(fake.requests.length).toBe(upstreamCalls + 1);

    const probeResponse = await probe;
    expect(probeResponse.status).toBe(200);
    expect((await probeResponse.arrayBuffer()).byteLength).toBeGreaterThan(0);
    fake.setBehavior('normal');
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'available' });
    const after = await speech(baseUrl, user.key, BODY);
    expect(after.status).toBe(200);
    await after.arrayBuffer();
    // The probe and the request after it were charged; the refused one was never reserved.
    expect(await settled(baseUrl, user.key)).toEqual({ balanceMicros: before.balanceMicros - 2 * COST, reservedMicros: 0 });
  });

  it('reopens when the probe fails', async () => {
    await openBreaker();
    await pause(COOLDOWN_MS + 100);
    const upstreamCalls = fake.requests.length;
    const probe = await speech(baseUrl, user.key, BODY);
    expect(probe.status).toBe(502);
    expect(fake.requests.length).toBe(upstreamCalls + 1);
    const refused = await speech(baseUrl, user.key, BODY);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-router-breaker-state')).toBe('open');
    expect(Number(refused.headers.get('retry-after'))).toBe(Math.ceil(COOLDOWN_MS / 1000));
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'unavailable', reason: 'circuit_open' });
    expect(fake.requests.length).toBe(upstreamCalls + 1);

    // And recovers once upstream does.
    fake.setBehavior('normal');
    await pause(COOLDOWN_MS + 100);
    const recovered = await speech(baseUrl, user.key, BODY);
    expect(recovered.status).toBe(200);
    await recovered.arrayBuffer();
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'available' });
  });

  it('does not count requests the provider refuses as the client\'s mistake', async () => {
    for (let attempt = 0; attempt < THRESHOLD + 1; attempt += 1) {
      const response = await speech(baseUrl, user.key, { ...BODY, voice: 'robot' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_body', details: 'openai refused the value of voice' });
    }
    expect(await openaiStatus()).toEqual({ id: 'openai', state: 'available' });
    expect(system.logs()).not.toContain(fake.leakMarker);
  });
});
