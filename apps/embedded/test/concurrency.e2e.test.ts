// Money under pressure in the scaled-out mode: two data-plane replicas, one worker, one wallet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { activity, credits, settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('concurrency and crash suites (scaled-out mode)', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(scaledAvailable)('scaled-out mode under concurrency and crashes', () => {
  let fake: CombinedFakeProviderServer;
  let slowCartesia: FakeProviderServer;
  let system: RunningSystem;

  beforeAll(async () => {
    fake = await startFakeProviders({ totalBytes: 8_192, chunkBytes: 4_096 });
    slowCartesia = await startFakeProvider('cartesia', { chunkBytes: 1024, chunkIntervalMs: 50, totalBytes: 1_000_000 });
    system = await startSystem({
      mode: 'scaled',
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        CARTESIA_API_KEY: slowCartesia.apiKey, CARTESIA_BASE_URL: slowCartesia.baseUrl,
        // A short reaper bound so the crash test finishes quickly; streams are capped below it.
        STREAM_MAX_DURATION_MS: '3000', RESERVATION_REAP_AFTER_MS: '4000', REAPER_INTERVAL_MS: '500',
        // This suite is about the wallet: keys may open all 200 requests at once (limits.e2e.test.ts tests limits).
        DEFAULT_KEY_MAX_CONCURRENCY: '1000',
      },
    });
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
    await slowCartesia?.close();
  });

  it('lets exactly N of 10×N parallel requests through a wallet funded for N, across two replicas', async () => {
    const requestsAllowed = 20;
    const input = 'ten chars!';
    const costPerRequest = input.length * 15;
    const usd = ((requestsAllowed * costPerRequest) / 1_000_000).toFixed(6);
    const wallet = await fundedKey(system, usd);
    expect(await credits(system.baseUrl, wallet.key)).toEqual({ balanceMicros: requestsAllowed * costPerRequest, reservedMicros: 0 });

    const results = await Promise.all(
      Array.from({ length: requestsAllowed * 10 }, async (_, index) => {
        const response = await speech(system.baseUrls[index % 2]!, wallet.key, { model: 'openai/tts-1', voice: 'alloy', input });
        const bytes = Buffer.from(await response.arrayBuffer());
        return { status: response.status, bytes: bytes.length };
      }),
    );
    const succeeded = results.filter((result) => result.status === 200);
    expect(succeeded).toHaveLength(requestsAllowed);
    expect(succeeded.every((result) => result.bytes > 0)).toBe(true);
    expect(results.filter((result) => result.status === 402)).toHaveLength(requestsAllowed * 9);

    expect(await settled(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    const rows = await activity(system.baseUrl, wallet.key, 100);
    expect(rows.filter((row) => row.kind === 'commit')).toHaveLength(requestsAllowed);
    expect(rows.filter((row) => row.kind === 'reserve')).toHaveLength(requestsAllowed);
    const audit = await system.admin('audit', '--email', wallet.email);
    expect(audit).toMatchObject({ consistent: true, balanceMicros: 0, reservedMicros: 0, sumOfDeltas: 0 });
  });

  it('settles a reservation whose data plane died mid-stream (the reaper voids it)', async () => {
    const wallet = await fundedKey(system, '1');
    const victim = system.baseUrls[1]!;
    const response = await speech(victim, wallet.key, { model: 'cartesia/sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', input: 'Crash during this stream' });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    const during = await credits(system.baseUrl, wallet.key);
    expect(during.reservedMicros).toBeGreaterThan(0);
    system.kill('data-plane-2');
    await reader.read().catch(() => undefined);

    const deadline = Date.now() + 15_000;
    let wallet_ = during;
    while (Date.now() < deadline) {
      wallet_ = await credits(system.baseUrl, wallet.key);
      if (wallet_.reservedMicros === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(wallet_).toEqual({ balanceMicros: 1_000_000, reservedMicros: 0 });
    const [latest] = await activity(system.baseUrl, wallet.key, 1);
    expect(latest).toMatchObject({ kind: 'void', source: 'reaper' });
  });
});
