// How the router ends streams itself, in both run modes: the STREAM_MAX_DURATION_MS deadline (also for a
// writer blocked on a client that stopped reading) and a graceful SIGTERM. Audio the provider produced and
// the client received is committed in every case; a drain lets streams in flight finish.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { activity, credits, settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('lifecycle end-to-end suite in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const CARTESIA_VOICE = '694f9389-aac1-45b6-b726-9d9369183238';
const STREAM_MAX_DURATION_MS = 2_000;
/** Cartesia's price is per character; the tests charge short inputs. */
const LONG_SPEECH = { model: 'cartesia/sonic-3', voice: CARTESIA_VOICE, input: 'A long story.', response_format: 'pcm' };

async function commitOf(baseUrl: string, key: string, reservationId: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await activity(baseUrl, key);
    const settlement = rows.find((row) => row.reservationId === reservationId && (row.kind === 'commit' || row.kind === 'void'));
    if (settlement || Date.now() > deadline) return settlement;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(modes)('streams the router ends itself (%s mode)', (mode) => {
  let slowCartesia: FakeProviderServer;
  let floodOpenAI: FakeProviderServer;
  let system: RunningSystem;
  let user: { key: string; email: string; accountId: string };

  beforeAll(async () => {
    // About 5 s of paced audio: longer than the stream's maximum duration.
    slowCartesia = await startFakeProvider('cartesia', { chunkBytes: 2048, chunkIntervalMs: 25, totalBytes: 400_000 });
    // As fast as the socket takes it, far more than any socket buffer holds.
    floodOpenAI = await startFakeProvider('openai', { chunkBytes: 65_536, totalBytes: 64_000_000 });
    system = await startSystem({
      mode,
      environment: {
        CARTESIA_API_KEY: slowCartesia.apiKey, CARTESIA_BASE_URL: slowCartesia.baseUrl,
        OPENAI_API_KEY: floodOpenAI.apiKey, OPENAI_BASE_URL: floodOpenAI.baseUrl,
        STREAM_MAX_DURATION_MS: String(STREAM_MAX_DURATION_MS), RESERVATION_REAP_AFTER_MS: '60000', SHUTDOWN_GRACE_MS: '15000',
      },
    });
    user = await fundedKey(system, '1');
  });

  afterAll(async () => {
    await system?.close();
    await slowCartesia?.close();
    await floodOpenAI?.close();
  });

  it('ends a stream at STREAM_MAX_DURATION_MS cleanly and commits it: the provider produced that audio', async () => {
    const before = await settled(system.baseUrl, user.key);
    const started = Date.now();
    const response = await speech(system.baseUrl, user.key, LONG_SPEECH);
    expect(response.status).toBe(200);
    const audio = Buffer.from(await response.arrayBuffer()); // a truncated transfer would reject here
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(STREAM_MAX_DURATION_MS - 100);
    expect(audio.length).toBeGreaterThan(0);
    expect(audio.length).toBeLessThan(400_000);
    const reservationId = response.headers.get('x-request-id')!;
    const cost = Number(response.headers.get('x-router-cost-micros'));
    const settlement = await commitOf(system.baseUrl, user.key, reservationId);
    expect(settlement).toMatchObject({ kind: 'commit', microsDelta: -cost });
    expect(settlement!.metadata).toMatchObject({ endedBy: 'max_duration' });
    expect(await settled(system.baseUrl, user.key)).toEqual({ balanceMicros: before.balanceMicros - cost, reservedMicros: 0 });
  });

  it('wakes a writer blocked by a client that stopped reading when the deadline comes, and commits', async () => {
    const url = new URL('/v1/audio/speech', system.baseUrl);
    const body = JSON.stringify({ model: 'openai/tts-1', voice: 'alloy', input: 'Flood me', response_format: 'mp3' });
    const request = http.request(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.on('response', resolve).on('error', reject);
      request.end(body);
    });
    try {
      expect(response.statusCode).toBe(200);
      response.pause(); // never read: the router meets backpressure and waits for the socket
      const reservationId = String(response.headers['x-request-id']);
      // Still not reading: the commit must come from the deadline, not from the client leaving.
      const settlement = await commitOf(system.baseUrl, user.key, reservationId, STREAM_MAX_DURATION_MS + 10_000);
      expect(settlement).toMatchObject({ kind: 'commit' });
      expect(settlement!.metadata).toMatchObject({ endedBy: 'max_duration' });
      expect(response.destroyed).toBe(false);
    } finally {
      response.destroy();
    }
    expect((await settled(system.baseUrl, user.key)).reservedMicros).toBe(0);
  });

  it('on SIGTERM turns readiness and new streams away, lets the stream in flight finish, commits it and exits 0', async () => {
    const target = mode === 'embedded' ? 'embedded' : 'data-plane-1';
    const baseUrl = system.baseUrls[0]!;
    const before = await settled(baseUrl, user.key);
    expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);
    // About 1.5 s of audio, within the maximum duration and the grace period.
    const fullSpeech = { ...LONG_SPEECH, input: 'Short tale.' };
    await slowCartesia.close();
    slowCartesia = await startFakeProvider('cartesia', {
      port: slowCartesia.port, apiKey: slowCartesia.apiKey, chunkBytes: 2048, chunkIntervalMs: 25, totalBytes: 120_000,
    });
    const response = await speech(baseUrl, user.key, fullSpeech);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    const exited = system.terminate(target);
    await new Promise((resolve) => setTimeout(resolve, 200));

    const readiness = await fetch(`${baseUrl}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toMatchObject({ status: 'draining' });
    const refused = await speech(baseUrl, user.key, fullSpeech);
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: 'provider_unavailable' });

    let received = first.value?.byteLength ?? 0;
    for (;;) {
      const chunk = await reader.read();
      if (chunk.done) break;
      received += chunk.value.byteLength;
    }
    expect(received).toBe(120_000);
    expect((await exited).code).toBe(0);

    const cost = Number(response.headers.get('x-router-cost-micros'));
    if (mode === 'scaled') {
      const settlement = await commitOf(system.baseUrls[1]!, user.key, response.headers.get('x-request-id')!);
      expect(settlement).toMatchObject({ kind: 'commit', microsDelta: -cost });
      expect(await credits(system.baseUrls[1]!, user.key)).toEqual({ balanceMicros: before.balanceMicros - cost, reservedMicros: 0 });
    } else {
      // The process settled everything before it exited: the ledger on disk shows the charge, nothing held.
      const audit = await system.admin('audit', '--email', user.email);
      expect(audit).toMatchObject({ consistent: true, balanceMicros: before.balanceMicros - cost, reservedMicros: 0 });
    }
  });
});
