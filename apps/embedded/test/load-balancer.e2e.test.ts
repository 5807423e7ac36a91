// The deployment's nginx configuration (infra/nginx) in front of the scaled-out router on loopback:
// two data planes, a control plane and a worker on PostgreSQL and Redis. Checks the path routing, that
// both replicas get traffic, that speech streams through unbuffered, and that nginx never lets a client
// choose the address (or host) the control plane sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, findNginx, postgresUrl, redisUrl, startNginx, type RunningNginx } from '@voice-router/test-support';
import { speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

const nginxInstalled = Boolean(findNginx());
const backingServices = Boolean(postgresUrl() && redisUrl());
if (!nginxInstalled) announceSkip('load balancer suite (infra/nginx)', 'nginx is not installed (Debian package nginx)');
else if (!backingServices) announceSkip('load balancer suite (infra/nginx)', 'DATABASE_URL and REDIS_URL are not both set');

// Small and slow: about 3 KB in ten chunks over ~3 s, less than one of nginx's buffers, so a buffering
// proxy would hold every byte until the upstream finished.
const SLOW_STREAM = { chunkBytes: 300, chunkIntervalMs: 300, totalBytes: 3_000 };
// Nothing listens here: the data planes cannot forward to the control plane themselves, so whatever
// reaches the control plane through nginx was routed there by nginx.
const UNREACHABLE_CONTROL_PLANE = 'http://127.0.0.1:9';

const hostPort = (url: string) => new URL(url).host;

describe.runIf(nginxInstalled && backingServices)('nginx in front of the scaled-out router', () => {
  const fakes: FakeProviderServer[] = [];
  let slow: FakeProviderServer;
  let system: RunningSystem;
  let nginx: RunningNginx;
  let key: string;

  beforeAll(async () => {
    // Each replica has its own OpenAI fake, so the fakes' request counts tell which replica served a
    // request; only replica 1 has an ElevenLabs key, so /v1/status tells the replicas apart too.
    fakes.push(await startFakeProvider('openai'), await startFakeProvider('openai'));
    slow = await startFakeProvider('cartesia', SLOW_STREAM);
    system = await startSystem({
      mode: 'scaled',
      environment: { CARTESIA_API_KEY: slow.apiKey, CARTESIA_BASE_URL: slow.baseUrl, STREAM_MAX_DURATION_MS: '20000' },
      replicaEnvironment: (replica) => ({
        OPENAI_API_KEY: fakes[replica - 1]!.apiKey,
        OPENAI_BASE_URL: fakes[replica - 1]!.baseUrl,
        ...(replica === 1 ? { ELEVENLABS_API_KEY: 'unused-here' } : {}),
        CONTROL_PLANE_URL: UNREACHABLE_CONTROL_PLANE,
      }),
    });
    nginx = await startNginx({ dataPlanes: system.baseUrls.map(hostPort), controlPlanes: [hostPort(system.controlPlaneUrl!)], streamReadTimeout: '30s' });
    key = (await fundedKey(system, '1')).key;
  });

  afterAll(async () => {
    await nginx?.close();
    await system?.close();
    await Promise.all([...fakes, slow].map((fake) => fake?.close()));
  });

  it('sends speech to the data planes, both replicas in turn', async () => {
    for (let request = 0; request < 4; request += 1) {
      const response = await speech(nginx.url, key, { model: 'openai/tts-1', voice: 'alloy', input: `Request ${request}` });
      expect(response.status, nginx.logs()).toBe(200);
      expect(response.headers.get('x-router-provider')).toBe('openai');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(fakes[0]!.requests.length).toBeGreaterThan(0);
    expect(fakes[1]!.requests.length).toBeGreaterThan(0);
    expect(fakes[0]!.requests.length + fakes[1]!.requests.length).toBe(4);
  });

  it('sends the catalog, status and wallet to the data planes, both replicas in turn', async () => {
    const elevenLabsStatus = new Set<string>();
    for (let request = 0; request < 4; request += 1) {
      const status = await fetch(`${nginx.url}/v1/status`);
      expect(status.status).toBe(200);
      const { providers } = (await status.json()) as { providers: Array<{ id: string; state: string }> };
      elevenLabsStatus.add(providers.find((provider) => provider.id === 'elevenlabs')!.state);
    }
    expect([...elevenLabsStatus].sort()).toEqual(['available', 'unavailable']);

    const voices = await fetch(`${nginx.url}/v1/voices?provider=openai`);
    expect(voices.status).toBe(200);
    expect(((await voices.json()) as { voices: unknown[] }).voices.length).toBeGreaterThan(0);
    const providers = await fetch(`${nginx.url}/v1/providers`);
    expect(((await providers.json()) as { providers: unknown[] }).providers.length).toBeGreaterThan(0);
    const wallet = await fetch(`${nginx.url}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
    expect(await wallet.json()).toMatchObject({ balanceMicros: expect.any(Number), reservedMicros: expect.any(Number) });
    const rows = await fetch(`${nginx.url}/v1/credits/activity?limit=5`, { headers: { authorization: `Bearer ${key}` } });
    expect(rows.status).toBe(200);
    expect(((await rows.json()) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
  });

  it('sends the OpenAPI document and the console to the control plane itself', async () => {
    // The data planes cannot reach the control plane in this suite (see above).
    const direct = await fetch(`${system.baseUrls[0]}/v1/openapi.json`);
    expect(direct.status).toBe(500);

    const document = await fetch(`${nginx.url}/v1/openapi.json`);
    expect(document.status).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    const login = await fetch(`${nginx.url}/console/login`);
    expect(login.status).toBe(200);
    expect(login.headers.get('content-type')).toContain('text/html');
    const keys = await fetch(`${nginx.url}/v1/keys`);
    expect(keys.status).toBe(401);
  });

  it('passes audio on as it arrives instead of buffering the stream', async () => {
    const response = await speech(nginx.url, key, { model: 'cartesia/sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', input: 'Slowly now' });
    expect(response.status, nginx.logs()).toBe(200);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    // The first bytes are here while the upstream is still sending the rest.
    const upstream = slow.requests.at(-1)!;
    expect(upstream.outcome).toBe('pending');
    expect(upstream.audioBytesSent).toBeLessThan(SLOW_STREAM.totalBytes);
    let received = first.value!.byteLength;
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) received += chunk.value.byteLength;
    expect(upstream.outcome).toBe('completed');
    expect(received).toBe(upstream.audioBytesSent);
  });

  it('counts rate limits under the socket address and builds links from the address the client used', async () => {
    // The control plane allows 60 device codes per client address per hour; every request claims
    // another address, and the first also forges the host its verification link would be built from.
    const statuses: number[] = [];
    for (let request = 0; request < 61; request += 1) {
      const response = await fetch(`${nginx.url}/v1/auth/device-code`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-forwarded-for': `203.0.113.${request}`,
          'x-real-ip': `203.0.113.${request}`,
          'x-forwarded-host': 'attacker.example',
        },
        body: '{}',
      });
      statuses.push(response.status);
      const body = (await response.json()) as { verification_uri?: string };
      if (request === 0) expect(new URL(body.verification_uri!).host).toBe(hostPort(nginx.url));
    }
    expect(statuses.slice(0, 60).every((status) => status === 200)).toBe(true);
    expect(statuses[60]).toBe(429);
  });

  it('answers a body over its own limit with the API error shape', async () => {
    const response = await speech(nginx.url, key, { model: 'openai/tts-1', voice: 'alloy', input: 'x'.repeat(2_000_000) });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'invalid_body', details: 'body too large' });
  });
});
