// The deployment's nginx configuration (infra/nginx) in front of the scaled-out router on loopback:
// two data planes, a control plane and a worker on PostgreSQL and Redis. Checks the path routing, that
// both replicas get traffic, that speech streams through unbuffered, and that nginx never lets a client
// choose the address (or host) the control plane sees.
import net from 'node:net';
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
// Far more than every socket buffer and the data plane's backlog on the way hold together (~25 MB).
const LARGE_STREAM = { chunkBytes: 65_536, chunkIntervalMs: 0, totalBytes: 96 * 1024 * 1024 };
const CARTESIA_VOICE = '694f9389-aac1-45b6-b726-9d9369183238';
// Nothing listens here: the data planes cannot forward to the control plane themselves, so whatever
// reaches the control plane through nginx was routed there by nginx.
const UNREACHABLE_CONTROL_PLANE = 'http://127.0.0.1:9';

const hostPort = (url: string) => new URL(url).host;

describe.runIf(nginxInstalled && backingServices)('nginx in front of the scaled-out router', () => {
  const fakes: FakeProviderServer[] = [];
  let slow: FakeProviderServer;
  let large: FakeProviderServer;
  let system: RunningSystem;
  let nginx: RunningNginx;
  let key: string;
  /** The upstream servers nginx sent each finished request for `uri` to, from its access log. */
  /** nginx logs a request after answering it: wait (briefly) until the `answered` requests are all logged. */
  const upstreamsOf = async (uri: string, answered = 1) => {
    const deadline = Date.now() + 2_000;
    for (;;) {
      const upstreams = nginx.routes().filter((route) => route.uri === uri).map((route) => route.upstream);
      if (upstreams.length >= answered || Date.now() > deadline) return upstreams;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  beforeAll(async () => {
    // Each replica has its own OpenAI fake: speech reaching a fake proves it went through that replica.
    fakes.push(await startFakeProvider('openai'), await startFakeProvider('openai'));
    slow = await startFakeProvider('cartesia', SLOW_STREAM);
    large = await startFakeProvider('elevenlabs', LARGE_STREAM);
    system = await startSystem({
      mode: 'scaled',
      environment: {
        CARTESIA_API_KEY: slow.apiKey, CARTESIA_BASE_URL: slow.baseUrl,
        ELEVENLABS_API_KEY: large.apiKey, ELEVENLABS_BASE_URL: large.baseUrl,
        STREAM_MAX_DURATION_MS: '60000',
      },
      replicaEnvironment: (replica) => ({
        OPENAI_API_KEY: fakes[replica - 1]!.apiKey,
        OPENAI_BASE_URL: fakes[replica - 1]!.baseUrl,
        CONTROL_PLANE_URL: UNREACHABLE_CONTROL_PLANE,
      }),
    });
    nginx = await startNginx({ dataPlanes: system.baseUrls.map(hostPort), controlPlanes: [hostPort(system.controlPlaneUrl!)], streamReadTimeout: '70s' });
    key = (await fundedKey(system, '1')).key;
  });

  afterAll(async () => {
    await nginx?.close();
    await system?.close();
    await Promise.all([...fakes, slow, large].map((fake) => fake?.close()));
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
    expect(new Set(await upstreamsOf('/v1/audio/speech', 4))).toEqual(new Set(system.baseUrls.map(hostPort)));
  });

  it('sends the catalog, status and wallet to the data planes, both replicas in turn', async () => {
    for (const path of ['/v1/status', '/v1/voices?provider=openai', '/v1/providers']) {
      for (let request = 0; request < 2; request += 1) {
        const response = await fetch(`${nginx.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
        expect(response.status).toBe(200);
        // The control plane would answer these paths 404; the data plane answers with the catalog.
        expect(Object.values((await response.json()) as Record<string, unknown[]>)[0]!.length).toBeGreaterThan(0);
      }
      expect(new Set(await upstreamsOf(path, 2)), path).toEqual(new Set(system.baseUrls.map(hostPort)));
    }
    const wallet = await fetch(`${nginx.url}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
    expect(await wallet.json()).toMatchObject({ balanceMicros: expect.any(Number), reservedMicros: expect.any(Number) });
    const rows = await fetch(`${nginx.url}/v1/credits/activity?limit=5`, { headers: { authorization: `Bearer ${key}` } });
    expect(rows.status).toBe(200);
    expect(((await rows.json()) as { rows: unknown[] }).rows.length).toBeGreaterThan(0);
    for (const path of ['/v1/credits', '/v1/credits/activity?limit=5']) {
      expect(system.baseUrls.map(hostPort)).toContain((await upstreamsOf(path))[0]);
    }
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
    for (const path of ['/v1/openapi.json', '/console/login', '/v1/keys']) {
      expect(await upstreamsOf(path), path).toEqual([hostPort(system.controlPlaneUrl!)]);
    }
  });

  it('passes audio on as it arrives instead of buffering the stream', async () => {
    const response = await speech(nginx.url, key, { model: 'cartesia/sonic-3', voice: CARTESIA_VOICE, input: 'Slowly now' });
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

  it('holds the upstream back while a client reads slowly, instead of reading the stream ahead into its own buffers', async () => {
    const body = JSON.stringify({ model: 'elevenlabs/eleven_flash_v2_5', voice: '21m00Tcm4TlvDq8ikWAM', input: 'A very long recording' });
    const client = net.connect(nginx.port, '127.0.0.1');
    const head = await new Promise<string>((resolve, reject) => {
      client.once('error', reject);
      client.once('data', (chunk: Buffer) => {
        client.pause(); // and never read again
        resolve(chunk.toString('latin1'));
      });
      client.write([
        'POST /v1/audio/speech HTTP/1.1', `Host: 127.0.0.1:${nginx.port}`, `Authorization: Bearer ${key}`,
        'Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`, '', body,
      ].join('\r\n'));
    });
    try {
      expect(head.split('\r\n')[0], nginx.logs()).toBe('HTTP/1.1 200 OK');
      // Wait until the upstream stops getting further: every buffer on the way is full.
      const upstream = large.requests.at(-1)!;
      let previous = -1;
      for (let waited = 0; upstream.audioBytesSent !== previous && waited < 30; waited += 1) {
        previous = upstream.audioBytesSent;
        await new Promise((resolve) => setTimeout(resolve, 1_000));
      }
      expect(upstream.outcome).toBe('pending');
      expect(upstream.audioBytesSent).toBeLessThan(LARGE_STREAM.totalBytes / 2);
    } finally {
      client.destroy();
    }
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
