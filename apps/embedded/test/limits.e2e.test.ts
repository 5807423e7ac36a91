// Per-key limits through the real HTTP interface, in both run modes: the rate limit, the concurrency
// limit (exact across the two data-plane replicas of the scaled-out mode), the spend caps and the
// wallet under 200 parallel requests, PATCH reaching every replica, a SIGKILLed replica's slots, and
// the bounded local synthesis queue. Requests alternate over `system.baseUrls`, so a load balancer
// in front of the replicas can replace that list unchanged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, person, type Person } from './accounts-support.js';
import { settled, speech } from './e2e-support.js';
import { createKey, openLongStream, patchKey, retryAfter, within, type OpenStream } from './limits-support.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('per-key limits in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const LEASE_TTL_MS = 3_000;
const DEFAULT_CONCURRENCY = 3;
const TEN_CHARS = { model: 'openai/tts-1', voice: 'alloy', input: 'ten chars!' };
const TEN_CHARS_COST = 10 * 15;
const LOCAL = { model: 'local/espeak-ng', voice: 'en-us' };

describe.each(modes)('per-key limits (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  let slowCartesia: FakeProviderServer;
  let system: RunningSystem;
  let owner: Person;
  const streams: OpenStream[] = [];
  const at = (index: number) => system.baseUrls[index % system.baseUrls.length]!;

  beforeAll(async () => {
    fake = await startFakeProviders({ totalBytes: 8_192, chunkBytes: 4_096 });
    slowCartesia = await startFakeProvider('cartesia', { chunkBytes: 1024, chunkIntervalMs: 50, totalBytes: 2_000_000 });
    system = await startSystem({
      mode,
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        CARTESIA_API_KEY: slowCartesia.apiKey, CARTESIA_BASE_URL: slowCartesia.baseUrl,
        STREAM_MAX_DURATION_MS: '60000', RESERVATION_REAP_AFTER_MS: '120000',
        DEFAULT_KEY_MAX_CONCURRENCY: String(DEFAULT_CONCURRENCY), DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: '100000',
        CONCURRENCY_LEASE_TTL_MS: String(LEASE_TTL_MS),
        // One synthesis worker and no waiting room: a second local request while one runs is refused.
        LOCAL_TTS_WORKERS: '1', LOCAL_TTS_MAX_QUEUE: '0',
      },
    });
    owner = await person(system.baseUrl, `limits-${mode}@example.com`);
    await system.admin('grant', '--email', owner.email, '--usd', '100');
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await system?.close();
    await fake?.close();
    await slowCartesia?.close();
  });

  async function holdStreams(count: number, key: string): Promise<OpenStream[]> {
    const opened = await Promise.all(Array.from({ length: count }, (_, index) => openLongStream(at(index), key)));
    streams.push(...opened);
    return opened;
  }

  it('counts every pk_ request toward the rate across replicas and refuses the rest with a hard Retry-After', async () => {
    const { key } = await createKey(system.baseUrl, owner, 'rate', { rateLimitPerMinute: 6 });
    const auth = { authorization: `Bearer ${key}` };
    const endpoints = ['/v1/credits', '/v1/credits/activity?limit=1', '/v1/voices?provider=local', '/v1/providers', '/v1/status'];
    for (const [index, path] of endpoints.entries()) expect((await fetch(`${at(index)}${path}`, { headers: auth })).status, path).toBe(200);
    expect((await speech(at(5), key, TEN_CHARS)).status).toBe(200);

    for (const [index, path] of [...endpoints, '/v1/audio/speech'].entries()) {
      const response = path === '/v1/audio/speech' ? await speech(at(index), key, TEN_CHARS) : await fetch(`${at(index)}${path}`, { headers: auth });
      expect(response.status, path).toBe(429);
      expect(await response.json()).toEqual({ error: 'rate_limited', code: 'rate_limit_exceeded', details: expect.stringContaining('6 requests per minute') });
      const seconds = retryAfter(response.headers);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
    }
    // The catalog with a session (it needs a token) is not counted against any key.
    expect((await fetch(`${system.baseUrl}/v1/providers`, { headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(200);
  });

  it('lets exactly maxConcurrency streams (the deployment default here) run across replicas; a slot frees when its stream ends', async () => {
    const { key } = await createKey(system.baseUrl, owner, 'default concurrency');
    const opened = await holdStreams(10, key);
    const running = opened.filter((stream) => stream.status === 200);
    const refused = opened.filter((stream) => stream.status === 429);
    expect(running).toHaveLength(DEFAULT_CONCURRENCY);
    expect(refused).toHaveLength(10 - DEFAULT_CONCURRENCY);
    for (const stream of refused) {
      expect(stream.body).toEqual({ error: 'concurrency_limited', code: 'concurrency_limit_exceeded', details: expect.stringContaining(`${DEFAULT_CONCURRENCY} speech streams`) });
      expect(retryAfter(stream.headers)).toBe(1);
    }
    // Nothing was reserved for the refused ones.
    const wallet = await api(system.baseUrl, '/v1/credits', key);
    expect(wallet.status).toBe(200);

    running[0]!.close();
    await within(5_000, async () => {
      const next = await openLongStream(at(1), key);
      streams.push(next);
      return next.status === 200;
    });
    for (const stream of running) stream.close();
  });

  it('never lets spend pass a key\'s cap or the wallet under 200 parallel requests over both replicas', async () => {
    const fresh = await person(system.baseUrl, `caps-${mode}@example.com`);
    // A wallet that holds 20 requests, shared by a key capped at 5 requests a day, one capped at 12,
    // and one without a cap: however the 200 requests interleave, exactly 20 succeed (the wallet binds),
    // and neither capped key passes its cap.
    await system.admin('grant', '--email', fresh.email, '--usd', ((20 * TEN_CHARS_COST) / 1_000_000).toFixed(6));
    const generous = { maxConcurrency: 1000, rateLimitPerMinute: 100000 };
    const small = await createKey(system.baseUrl, fresh, 'capped at 5', { ...generous, dailySpendCapMicros: 5 * TEN_CHARS_COST });
    const larger = await createKey(system.baseUrl, fresh, 'capped at 12', { ...generous, monthlySpendCapMicros: 12 * TEN_CHARS_COST });
    const uncapped = await createKey(system.baseUrl, fresh, 'uncapped', generous);
    const keys = [small.key, larger.key, uncapped.key];
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const key = keys[index % 3]!;
        const response = await speech(at(index), key, TEN_CHARS);
        const body = response.status === 200 ? (await response.arrayBuffer(), undefined) : ((await response.json()) as Record<string, unknown>);
        return { key, status: response.status, body };
      }),
    );
    const succeeded = (key: string) => results.filter((result) => result.key === key && result.status === 200).length;
    expect(succeeded(small.key) + succeeded(larger.key) + succeeded(uncapped.key)).toBe(20);
    expect(succeeded(small.key)).toBeLessThanOrEqual(5);
    expect(succeeded(larger.key)).toBeLessThanOrEqual(12);
    const refusals = results.filter((result) => result.status !== 200);
    expect(refusals.every((result) => result.status === 402)).toBe(true);
    for (const refusal of refusals) {
      if (refusal.body!.error === 'spend_limit_exceeded') expect(refusal.key).not.toBe(uncapped.key);
      else expect(refusal.body).toMatchObject({ error: 'insufficient_credit' });
    }
    const wallet = await settled(system.baseUrl, small.key);
    expect(wallet).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    expect(await system.admin('audit', '--email', fresh.email)).toMatchObject({ consistent: true, balanceMicros: 0, reservedMicros: 0 });

    // One key alone: exactly its cap, to the micro-dollar, and the 402 names the cap and its reset.
    await system.admin('grant', '--email', fresh.email, '--usd', '1');
    const exact = await createKey(system.baseUrl, fresh, 'exact', { maxConcurrency: 1000, dailySpendCapMicros: 20 * TEN_CHARS_COST });
    const statuses = await Promise.all(Array.from({ length: 200 }, async (_, index) => {
      const response = await speech(at(index), exact.key, TEN_CHARS);
      await response.arrayBuffer();
      return response.status;
    }));
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    const refused = await speech(system.baseUrl, exact.key, TEN_CHARS);
    expect(refused.status).toBe(402);
    const tomorrow = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString();
    expect(await refused.json()).toEqual({ error: 'spend_limit_exceeded', code: 'daily_spend_cap_exceeded', details: expect.stringContaining(tomorrow) });
    expect((await settled(system.baseUrl, exact.key)).balanceMicros).toBe(1_000_000 - 20 * TEN_CHARS_COST);
    expect(await system.admin('audit', '--email', fresh.email)).toMatchObject({ consistent: true, reservedMicros: 0 });
  });

  it('applies a PATCH on every replica within a second, and a monthly cap names the month', async () => {
    const { id, key } = await createKey(system.baseUrl, owner, 'patched');
    for (const baseUrl of system.baseUrls) expect((await speech(baseUrl, key, TEN_CHARS)).status).toBe(200);
    const patched = await patchKey(system.baseUrl, owner, id, { monthlySpendCapMicros: 0, rateLimitPerMinute: 500 });
    expect(patched).toMatchObject({ status: 200, body: { id, monthlySpendCapMicros: 0, rateLimitPerMinute: 500 } });
    const changedAt = Date.now();
    for (const baseUrl of system.baseUrls) {
      await within(1_000 - (Date.now() - changedAt), async () => (await speech(baseUrl, key, TEN_CHARS)).status === 402, 20);
    }
    const refused = await speech(at(1), key, TEN_CHARS);
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString();
    expect(await refused.json()).toEqual({ error: 'spend_limit_exceeded', code: 'monthly_spend_cap_exceeded', details: expect.stringContaining(nextMonth) });
    // Free speech is not spend: the local voice still answers.
    const free = await speech(at(0), key, { ...LOCAL, input: 'free' });
    expect(free.status).toBe(200);
    await free.arrayBuffer();

    expect((await patchKey(system.baseUrl, owner, id, { monthlySpendCapMicros: null })).status).toBe(200);
    const removedAt = Date.now();
    for (const baseUrl of system.baseUrls) {
      await within(1_000 - (Date.now() - removedAt), async () => (await speech(baseUrl, key, TEN_CHARS)).status === 200, 20);
    }
    expect(await patchKey(system.baseUrl, owner, id, { maxConcurrency: 0 })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
  });

  it('refuses local synthesis with 503 and Retry-After while its bounded queue is full', async () => {
    const { key } = await createKey(system.baseUrl, owner, 'local');
    const controller = new AbortController();
    const long = await speech(system.baseUrl, key, { ...LOCAL, input: 'A long sentence keeps the only worker busy. '.repeat(90) }, { signal: controller.signal });
    expect(long.status, long.status === 200 ? '' : await long.text()).toBe(200);
    await long.body!.getReader().read();
    const refused = await speech(system.baseUrl, key, { ...LOCAL, input: 'No room' });
    controller.abort();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'provider_unavailable', details: expect.stringContaining('capacity') });
    expect(retryAfter(refused.headers)).toBeGreaterThanOrEqual(1);
  });

  it.runIf(mode === 'scaled')('frees the slots of a SIGKILLed replica within the lease TTL', async () => {
    const { key } = await createKey(system.baseUrl, owner, 'crash', { maxConcurrency: 2 });
    const victim = system.baseUrls[1]!;
    const held = await Promise.all([openLongStream(victim, key), openLongStream(victim, key)]);
    streams.push(...held);
    expect(held.map((stream) => stream.status)).toEqual([200, 200]);
    expect((await openLongStream(system.baseUrls[0]!, key)).status).toBe(429);
    system.kill('data-plane-2');
    const freedAfterMs = await within(LEASE_TTL_MS + 2_000, async () => {
      const next = await openLongStream(system.baseUrls[0]!, key);
      streams.push(next);
      return next.status === 200;
    }, 100);
    expect(freedAfterMs).toBeLessThanOrEqual(LEASE_TTL_MS + 2_000);
  });
});
