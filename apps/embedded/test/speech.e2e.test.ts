// The speech path end to end, in both run modes: the official OpenAI SDK as the client, the router
// as real processes, faithful fakes as the upstream providers, and the ledger checked after each step.
import fs from 'node:fs';
import http from 'node:http';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, parseMp3Frames, postgresUrl, probeAudio, redisUrl } from '@voice-router/test-support';
import { activity, credits, expectAudit, pcmStats, settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('end-to-end suites in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const LOCAL = { model: 'local/espeak-ng', voice: 'en-us' };
const RACHEL = '21m00Tcm4TlvDq8ikWAM';
const CARTESIA_VOICE = '694f9389-aac1-45b6-b726-9d9369183238';

describe.each(modes)('speech end to end (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  let slowCartesia: FakeProviderServer;
  let system: RunningSystem;
  let user: { key: string; email: string; accountId: string };

  beforeAll(async () => {
    fake = await startFakeProviders({ chunkBytes: 4096 });
    slowCartesia = await startFakeProvider('cartesia', { chunkBytes: 2048, chunkIntervalMs: 25, totalBytes: 400_000 });
    system = await startSystem({
      mode,
      viaNpmStart: mode === 'embedded',
      environment: {
        // As the OpenAI SDK takes it: ending in /v1 (here with a trailing slash, which is accepted too).
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: `${fake.baseUrlFor('openai')}/`,
        ELEVENLABS_API_KEY: fake.apiKey, ELEVENLABS_BASE_URL: fake.baseUrlFor('elevenlabs'),
        CARTESIA_API_KEY: slowCartesia.apiKey, CARTESIA_BASE_URL: slowCartesia.baseUrl,
        UPSTREAM_ATTEMPT_TIMEOUT_MS: '1000', UPSTREAM_MAX_ATTEMPTS: '2',
        STREAM_MAX_DURATION_MS: '20000', RESERVATION_REAP_AFTER_MS: '60000',
        // Failure tests here would otherwise trip the circuit breaker, which has its own suite.
        BREAKER_FAILURE_THRESHOLD: '1000',
      },
    });
    user = await fundedKey(system, '1');
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
    await slowCartesia?.close();
  });

  it.runIf(mode === 'embedded')('npm start runs the service with PGlite\'s malloc setting (glibc reads it before Node starts)', () => {
    const launcher = system.pid('embedded')!;
    if (!fs.existsSync(`/proc/${launcher}/task/${launcher}/children`)) {
      announceSkip('the malloc setting of the process npm start runs', 'no /proc to read another process\'s environment from');
      return;
    }
    const [service] = fs.readFileSync(`/proc/${launcher}/task/${launcher}/children`, 'utf8').trim().split(/\s+/);
    const environment = fs.readFileSync(`/proc/${service}/environ`, 'utf8').split('\0');
    expect(fs.readFileSync(`/proc/${service}/cmdline`, 'utf8')).toContain('apps/embedded/dist/main.js');
    expect(environment).toContain('MALLOC_TRIM_THRESHOLD_=131072');
  });

  it('serves the official OpenAI SDK from openai/… through the upstream, charging the cost it reports', async () => {
    const client = new OpenAI({ baseURL: `${system.baseUrl}/v1`, apiKey: user.key, maxRetries: 0 });
    const before = await credits(system.baseUrl, user.key);
    const response = await client.audio.speech.create({ model: 'openai/tts-1', voice: 'alloy', input: 'Hello from the router', response_format: 'mp3' }).asResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('x-router-provider')).toBe('openai');
    expect(response.headers.get('x-router-cost-micros')).toBe(String(21 * 15));
    const audio = Buffer.from(await response.arrayBuffer());
    expect(parseMp3Frames(audio).frames).toBeGreaterThan(5);
    const stream = await probeAudio(audio);
    if (stream) expect(stream.codec).toBe('mp3');
    else announceSkip('ffprobe checks', 'ffprobe is not installed; MP3 frames were checked in JavaScript');

    const upstream = fake.requests.at(-1)!;
    expect(upstream.path).toBe('/v1/audio/speech');
    expect(upstream.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(upstream.body).toMatchObject({ model: 'tts-1', voice: 'alloy', input: 'Hello from the router', response_format: 'mp3' });
    expect(JSON.stringify(upstream.headers)).not.toContain(user.key);

    const after = await settled(system.baseUrl, user.key);
    expect(after).toEqual({ balanceMicros: before.balanceMicros - 315, reservedMicros: 0 });
    const rows = await activity(system.baseUrl, user.key, 2);
    expect(rows.map((row) => row.kind)).toEqual(['commit', 'reserve']);
    expect(rows[0]).toMatchObject({ microsDelta: -315, microsBalanceAfter: after.balanceMicros, source: mode === 'scaled' ? 'worker' : 'request' });
  });

  it('speaks offline with the local provider, in MP3 and in 24 kHz PCM, at no charge', async () => {
    const client = new OpenAI({ baseURL: `${system.baseUrl}/v1`, apiKey: user.key, maxRetries: 0 });
    const mp3 = await client.audio.speech.create({ model: LOCAL.model, voice: LOCAL.voice, input: 'The quick brown fox jumps over the lazy dog.' }).asResponse();
    expect(mp3.headers.get('x-router-cost-micros')).toBe('0');
    const mp3Bytes = Buffer.from(await mp3.arrayBuffer());
    const summary = parseMp3Frames(mp3Bytes);
    expect(summary.sampleRate).toBe(24_000);
    expect(summary.durationSeconds).toBeGreaterThan(1);
    const stream = await probeAudio(mp3Bytes);
    if (stream) expect(stream).toMatchObject({ codec: 'mp3', sampleRate: 24_000, channels: 1 });

    const pcm = await client.audio.speech.create({ model: LOCAL.model, voice: LOCAL.voice, input: 'Raw samples, please.', response_format: 'pcm' }).asResponse();
    expect(pcm.headers.get('content-type')).toMatch(/^audio\/l16/);
    const pcmBytes = Buffer.from(await pcm.arrayBuffer());
    expect(pcmBytes.length % 2).toBe(0);
    const stats = pcmStats(pcmBytes);
    expect(stats.samples / 24_000).toBeGreaterThan(0.5);
    expect(stats.rms).toBeGreaterThan(200);
  });

  it('maps or warns about OpenAI options the provider lacks', async () => {
    const response = await speech(system.baseUrl, user.key, {
      model: `elevenlabs/eleven_flash_v2_5`, voice: RACHEL, input: 'Warn me', instructions: 'whisper', stream_format: 'audio',
    });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    const warnings = response.headers.get('x-router-warnings') ?? '';
    expect(warnings).toContain('stream_format');
    expect(warnings).toContain('instructions');
  });

  it('rejects bad input with the spec error and charges nothing', async () => {
    const before = await settled(system.baseUrl, user.key);
    const cases: Array<[unknown, number, string, string?]> = [
      ['{"model": "openai/tts-1", ', 400, 'invalid_body'],
      [[1, 2], 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 'alloy' }, 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 7, input: 'x' }, 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 'alloy', input: 'x', speed: 'fast' }, 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 'alloy', input: 'x', response_format: 'opus' }, 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 'al\r\nloy', input: 'x' }, 400, 'invalid_body'],
      [{ model: 'openai/tts-1', voice: 'alloy', input: 'x'.repeat(4097) }, 400, 'invalid_body'],
      [{ model: 'tts-1', voice: 'alloy', input: 'x' }, 400, 'invalid_model'],
      [{ model: 'nope/tts-1', voice: 'alloy', input: 'x' }, 400, 'invalid_model', 'unknown_provider: nope'],
      [{ model: 'openai/tts-9', voice: 'alloy', input: 'x' }, 400, 'invalid_model'],
    ];
    for (const [body, status, code, details] of cases) {
      const response = await speech(system.baseUrl, user.key, body);
      const json = (await response.json()) as { error: string; details?: string };
      expect({ body, status: response.status, code: json.error }).toEqual({ body, status, code });
      if (details) expect(json.details).toBe(details);
    }
    expect((await speech(system.baseUrl, undefined, { model: 'openai/tts-1', voice: 'alloy', input: 'x' })).status).toBe(401);
    expect((await speech(system.baseUrl, 'pk_not_a_real_key_at_all', { model: 'openai/tts-1', voice: 'alloy', input: 'x' })).status).toBe(401);
    expect(await settled(system.baseUrl, user.key)).toEqual(before);
  });

  it('refuses an oversized body from its Content-Length without reading it', async () => {
    const url = new URL(`${system.baseUrl}/v1/audio/speech`);
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const request = http.request({
        host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(10 * 1024 * 1024), authorization: `Bearer ${user.key}` },
      }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body }));
      });
      request.on('error', reject);
      request.write('{"model":"openai/tts-1",');
      // Deliberately never send the other 10 MB.
    });
    expect(result.status).toBe(400);
    expect(JSON.parse(result.body)).toMatchObject({ error: 'invalid_body' });
  });

  it('keeps voice ids inside the upstream path, and answers the unknown voice as the client\'s mistake', async () => {
    const before = await settled(system.baseUrl, user.key);
    const requestsBefore = fake.requests.length;
    for (const voice of ['../../v1/user', '%2E%2E%2Fadmin', 'a?output_format=pcm_44100', 'x#frag', 'ünï cødé']) {
      const response = await speech(system.baseUrl, user.key, { model: 'elevenlabs/eleven_flash_v2_5', voice, input: 'hi' });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: 'invalid_body', details: 'elevenlabs refused the value of voice' });
    }
    expect(await settled(system.baseUrl, user.key)).toEqual(before);
    const paths = fake.requests.slice(requestsBefore).map((request) => request.path);
    expect(paths).toHaveLength(5);
    for (const upstreamPath of paths) expect(upstreamPath).toMatch(/^\/v1\/text-to-speech\/[^/?#]+\/stream\?output_format=mp3_44100_128$/);
  });

  it('answers upstream failures with 502 or 504, never leaks their bodies, and charges nothing', async () => {
    const before = await settled(system.baseUrl, user.key);
    const body = { model: 'openai/tts-1', voice: 'alloy', input: 'Failure path' };
    fake.setBehavior({ status: 500 });
    const serverError = await speech(system.baseUrl, user.key, body);
    expect(serverError.status).toBe(502);
    const serverErrorText = await serverError.text();
    expect(serverErrorText).not.toContain(fake.leakMarker);
    expect(JSON.parse(serverErrorText)).toEqual({
      error: 'upstream_error', code: 'upstream_server_error', details: 'openai failed after 2 attempts: the provider had a server error',
    });

    fake.setBehavior({ status: 401 });
    const unauthorised = await speech(system.baseUrl, user.key, body);
    expect(unauthorised.status).toBe(502);
    const unauthorisedText = await unauthorised.text();
    expect(unauthorisedText).not.toContain(fake.leakMarker);
    expect(JSON.parse(unauthorisedText)).toMatchObject({ error: 'upstream_error', code: 'upstream_auth_failed' });

    fake.setBehavior({ hang: true });
    const started = Date.now();
    const timeout = await speech(system.baseUrl, user.key, body);
    expect(timeout.status).toBe(504);
    expect(await timeout.json()).toMatchObject({ error: 'upstream_error', code: 'upstream_timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    fake.setBehavior('normal');

    expect(await settled(system.baseUrl, user.key)).toEqual(before);
    const voids = (await activity(system.baseUrl, user.key, 10)).filter((row) => row.kind === 'void');
    expect(voids.length).toBeGreaterThanOrEqual(3);
    expect(system.logs()).not.toContain(fake.leakMarker);
  });

  it('never passes on a string from an upstream error (body fields, request ids, other headers), for any provider', async () => {
    const before = await settled(system.baseUrl, user.key);
    const providers = [
      { fake, body: { model: 'openai/tts-1', voice: 'alloy', input: 'Marked failure' } },
      { fake, body: { model: 'elevenlabs/eleven_flash_v2_5', voice: RACHEL, input: 'Marked failure' } },
      { fake: slowCartesia, body: { model: 'cartesia/sonic-3', voice: CARTESIA_VOICE, input: 'Marked failure' } },
    ];
    for (const { fake: upstream, body } of providers) {
      for (const status of [400, 401, 404, 422, 429, 500, 503]) {
        upstream.setBehavior({ status, markEveryField: true });
        const response = await speech(system.baseUrl, user.key, body);
        const text = await response.text();
        const headers = JSON.stringify([...response.headers]);
        expect(text, `${body.model} answered ${status}`).not.toContain(upstream.leakMarker);
        expect(headers, `${body.model} answered ${status}`).not.toContain(upstream.leakMarker);
        expect([400, 502]).toContain(response.status);
        const json = JSON.parse(text) as { error: string; code?: string };
        if (response.status === 502) expect(json.code).toMatch(/^upstream_[a-z_]+$/);
        upstream.setBehavior('normal');
      }
    }
    expect(await settled(system.baseUrl, user.key)).toEqual(before);
    expect(system.logs()).not.toContain(fake.leakMarker);
    expect(system.logs()).not.toContain(slowCartesia.leakMarker);
  });

  it('charges a client that leaves mid-stream, and not for an upstream that dies mid-stream', async () => {
    const before = await settled(system.baseUrl, user.key);
    const controller = new AbortController();
    const response = await speech(system.baseUrl, user.key, { model: 'cartesia/sonic-3', voice: CARTESIA_VOICE, input: 'Leaving early' }, { signal: controller.signal });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    const charged = Number(response.headers.get('x-router-cost-micros'));
    expect(charged).toBe('Leaving early'.length * 38);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const afterLeave = await settled(system.baseUrl, user.key);
    expect(afterLeave).toEqual({ balanceMicros: before.balanceMicros - charged, reservedMicros: 0 });
    // The upstream request was cancelled, not left streaming.
    const upstream = slowCartesia.requests.at(-1)!;
    expect(await slowCartesia.waitForOutcome(upstream, 5000)).toBe('aborted');

    fake.setBehavior({ dieAfterBytes: 10_000 });
    const dying = await speech(system.baseUrl, user.key, { model: 'openai/tts-1', voice: 'alloy', input: 'This stream will break '.repeat(20) });
    expect(dying.status).toBe(200);
    await expect(dying.arrayBuffer()).rejects.toThrow();
    fake.setBehavior('normal');
    expect(await settled(system.baseUrl, user.key)).toEqual(afterLeave);
    const [latest] = await activity(system.baseUrl, user.key, 1);
    expect(latest).toMatchObject({ kind: 'void', metadata: expect.objectContaining({ midStream: true }) });
    expect(await expectAudit(system, user.email)).toMatchObject({ consistent: true });
  });

  it('refuses with 402 what the wallet cannot cover', async () => {
    const poor = await fundedKey(system, '0.0001');
    const response = await speech(system.baseUrl, poor.key, { model: 'openai/tts-1', voice: 'alloy', input: 'x'.repeat(100) });
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ error: 'insufficient_credit' });
    expect(await credits(system.baseUrl, poor.key)).toEqual({ balanceMicros: 100, reservedMicros: 0 });
    const cheap = await speech(system.baseUrl, poor.key, { model: 'openai/tts-1', voice: 'alloy', input: 'x'.repeat(6) });
    expect(cheap.status).toBe(200);
    await cheap.arrayBuffer();
    expect(await settled(system.baseUrl, poor.key)).toEqual({ balanceMicros: 10, reservedMicros: 0 });
  });

  it('lists providers, filters voices and reports status without upstream calls, to a token only', async () => {
    const upstreamCalls = fake.requests.length;
    const headers = { authorization: `Bearer ${user.key}` };
    for (const path of ['/v1/providers', '/v1/voices', '/v1/status']) {
      const refused = await fetch(`${system.baseUrl}${path}`);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ error: 'unauthorized' });
    }
    const providers = (await (await fetch(`${system.baseUrl}/v1/providers`, { headers })).json()) as { providers: Array<Record<string, any>> };
    expect(providers.providers.map((provider) => provider.id)).toEqual(expect.arrayContaining(['local', 'openai', 'elevenlabs', 'cartesia']));
    const openai = providers.providers.find((provider) => provider.id === 'openai')!;
    expect(openai.models.find((model: { id: string }) => model.id === 'tts-1')).toMatchObject({ response_formats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 15 } });
    expect(openai.capabilities).toHaveProperty('unwiredCapabilities');
    for (const provider of providers.providers) expect(provider.capabilities.lastSmokeTest).toBe('never');

    const voices = async (query: string) =>
      ((await (await fetch(`${system.baseUrl}/v1/voices${query}`, { headers })).json()) as { voices: Array<Record<string, any>> }).voices;
    const all = await voices('');
    // Voices of every provider with a static list, configured or not (more join as providers are added),
    // and each one belongs to a listed provider.
    const voiceProviders = [...new Set(all.map((voice) => voice.provider))];
    expect(voiceProviders).toEqual(expect.arrayContaining(['local', 'openai', 'elevenlabs', 'cartesia']));
    expect(providers.providers.map((provider) => provider.id)).toEqual(expect.arrayContaining(voiceProviders));
    const some = await voices('?provider=openai,local');
    expect(new Set(some.map((voice) => voice.provider))).toEqual(new Set(['openai', 'local']));
    const english = await voices('?language=EN');
    expect(english.length).toBeGreaterThan(0);
    expect(english.every((voice) => /^en(-|$)/i.test(voice.language))).toBe(true);
    const female = await voices('?gender=FEMALE');
    expect(female.length).toBeGreaterThan(0);
    expect(female.every((voice) => voice.labels.gender.toLowerCase() === 'female')).toBe(true);

    const status = (await (await fetch(`${system.baseUrl}/v1/status`, { headers })).json()) as { providers: Array<{ id: string; state: string }> };
    expect(status.providers).toEqual(expect.arrayContaining([{ id: 'local', state: 'available' }, { id: 'openai', state: 'available' }]));
    expect(fake.requests.length).toBe(upstreamCalls);
  });

  it('serves the wallet and its activity, validating the limit', async () => {
    expect((await fetch(`${system.baseUrl}/v1/credits`)).status).toBe(401);
    // These two requests ended the whole process on Node 24 with the uWS package's JS fallback.
    for (const target of ['/v1/credits/activity', '/v1/credits/activity?limit=5']) {
      for (const baseUrl of system.baseUrls) {
        const response = await fetch(`${baseUrl}${target}`, { headers: { authorization: `Bearer ${user.key}` } });
        expect(response.status, `${baseUrl}${target}`).toBe(200);
        const rows = ((await response.json()) as { rows: unknown[] }).rows;
        expect(rows.length).toBeGreaterThan(0);
        expect(rows.length).toBeLessThanOrEqual(target.endsWith('5') ? 5 : 100);
      }
    }
    for (const limit of ['0', '101', 'ten', '1.5']) {
      const response = await fetch(`${system.baseUrl}/v1/credits/activity?limit=${limit}`, { headers: { authorization: `Bearer ${user.key}` } });
      expect(response.status).toBe(400);
    }
    const rows = await activity(system.baseUrl, user.key, 100);
    expect(rows.at(-1)).toMatchObject({ kind: 'top-up', source: 'admin', microsDelta: 1_000_000 });
    expect(Object.keys(rows[0]!).sort()).toEqual(['createdAt', 'id', 'kind', 'metadata', 'microsBalanceAfter', 'microsDelta', 'reservationId', 'source']);
    const document = (await (await fetch(`${system.baseUrl}/v1/openapi.json`)).json()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
  });

  it('logs which HTTP server the data plane runs: node:http where no native uWS build loads or when forced', () => {
    const forced = process.env.DATA_PLANE_SERVER === 'node' || Number(process.versions.node.split('.')[0]) >= 22;
    const lines = system.logs().split('\n').filter((line) => line.includes('data plane HTTP server'));
    expect(lines).toHaveLength(system.baseUrls.length);
    for (const line of lines) expect(line).toContain(forced ? '"server":"node-http"' : '"server":"uws-native"');
  });

  it('never writes provider keys, pk_ keys or upstream bodies to its logs', () => {
    const logs = system.logs();
    expect(logs).not.toContain(fake.apiKey);
    expect(logs).not.toContain(slowCartesia.apiKey);
    expect(logs).not.toContain(user.key);
    expect(logs).not.toContain(fake.leakMarker);
  });
});
