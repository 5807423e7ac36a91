// Per-key limits through the real HTTP interface, in both run modes: the rate limit, the concurrency
// limit, the spend caps and the wallet under 200 parallel requests, PATCH and revocation reaching
// every replica, a SIGKILLed replica's slots, and the bounded local synthesis queue.
//
// The scaled-out mode runs the deployment's own nginx configuration (infra/nginx) in front of two
// data-plane processes, one control plane and one worker on PostgreSQL and Redis, all on loopback, and
// sends every request through nginx, as a client would. nginx's access log (which replica answered)
// and one slow fake provider per replica (which replica holds a running stream) show that the
// requests were spread over both replicas, so an exact count proves the limit is shared.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, findNginx, postgresUrl, redisUrl, startNginx, type RunningNginx } from '@voice-router/test-support';
import { api, person, type Person } from './accounts-support.js';
import { settled, speech } from './e2e-support.js';
import { createKey, openLongStream, patchKey, retryAfter, within, type OpenStream } from './limits-support.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const backingServices = Boolean(postgresUrl() && redisUrl());
const nginxInstalled = Boolean(findNginx());
if (!backingServices) announceSkip('per-key limits in the scaled-out mode (nginx + two replicas)', 'DATABASE_URL and REDIS_URL are not both set');
else if (!nginxInstalled) announceSkip('per-key limits in the scaled-out mode (nginx + two replicas)', 'nginx is not installed (Debian package nginx, or set NGINX_PATH)');
const modes: SystemMode[] = backingServices && nginxInstalled ? ['embedded', 'scaled'] : ['embedded'];

const LEASE_TTL_MS = 3_000;
const DEFAULT_CONCURRENCY = 3;
const TEN_CHARS = { model: 'openai/tts-1', voice: 'alloy', input: 'ten chars!' };
const TEN_CHARS_COST = 10 * 15;
const LOCAL = { model: 'local/espeak-ng', voice: 'en-us' };
const SLOW_CARTESIA = { chunkBytes: 1024, chunkIntervalMs: 50, totalBytes: 2_000_000 };

const hostPort = (url: string) => new URL(url).host;

describe.each(modes)('per-key limits (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  /** Slow Cartesia fakes that keep a stream (and its slot) open: one per data-plane replica. */
  const slowCartesia: FakeProviderServer[] = [];
  let system: RunningSystem;
  let nginx: RunningNginx | undefined;
  /** Where a client sends its requests: nginx in the scaled-out mode, the one process otherwise. */
  let entry: string;
  let owner: Person;
  const streams: OpenStream[] = [];

  beforeAll(async () => {
    fake = await startFakeProviders({ totalBytes: 8_192, chunkBytes: 4_096 });
    for (let replica = 0; replica < (mode === 'scaled' ? 2 : 1); replica += 1) slowCartesia.push(await startFakeProvider('cartesia', SLOW_CARTESIA));
    system = await startSystem({
      mode,
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        CARTESIA_API_KEY: slowCartesia[0]!.apiKey, CARTESIA_BASE_URL: slowCartesia[0]!.baseUrl,
        STREAM_MAX_DURATION_MS: '60000', RESERVATION_REAP_AFTER_MS: '120000',
        DEFAULT_KEY_MAX_CONCURRENCY: String(DEFAULT_CONCURRENCY), DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: '100000',
        CONCURRENCY_LEASE_TTL_MS: String(LEASE_TTL_MS),
        // One synthesis worker and no waiting room: a second local request while one runs is refused.
        LOCAL_TTS_WORKERS: '1', LOCAL_TTS_MAX_QUEUE: '0',
      },
      replicaEnvironment: (replica) => ({ CARTESIA_API_KEY: slowCartesia[replica - 1]!.apiKey, CARTESIA_BASE_URL: slowCartesia[replica - 1]!.baseUrl }),
    });
    if (mode === 'scaled') {
      nginx = await startNginx({ dataPlanes: system.baseUrls.map(hostPort), controlPlanes: [hostPort(system.controlPlaneUrl!)], streamReadTimeout: '70s' });
    }
    entry = nginx?.url ?? system.baseUrl;
    owner = await person(entry, `limits-${mode}@example.com`);
    await system.admin('grant', '--email', owner.email, '--usd', '100');
  });

  afterAll(async () => {
    for (const stream of streams) stream.close();
    await nginx?.close();
    await system?.close();
    await fake?.close();
    await Promise.all(slowCartesia.map((server) => server.close()));
  });

  /** How many finished requests nginx has logged so far (0 without nginx). */
  const logMark = () => nginx?.routes().length ?? 0;

  /**
   * The replicas (host:port) that answered the data-plane requests nginx logged since `mark`; waits
   * briefly for `answered` of them, since nginx logs a request only after answering it. Empty without nginx.
   */
  async function replicasSince(mark: number, answered: number): Promise<Set<string>> {
    if (!nginx) return new Set();
    const replicas = new Set(system.baseUrls.map(hostPort));
    const deadline = Date.now() + 2_000;
    for (;;) {
      const routes = nginx.routes().slice(mark).filter((route) => replicas.has(route.upstream));
      if (routes.length >= answered || Date.now() > deadline) return new Set(routes.map((route) => route.upstream));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** In the scaled-out mode, both replicas answered the requests logged since `mark`. */
  async function expectBothReplicas(mark: number, answered: number): Promise<void> {
    if (mode === 'scaled') expect(await replicasSince(mark, answered), nginx!.logs()).toEqual(new Set(system.baseUrls.map(hostPort)));
  }

  /** Which replica (1-based) each newly admitted slow stream runs on, from the per-replica fakes. */
  function streamCounts(): number[] {
    return slowCartesia.map((server) => server.requests.length);
  }

  /**
   * Polls through the entry point until `consecutive` requests in a row give `status`; in the
   * scaled-out mode those requests must have reached both replicas. Resolves with the milliseconds
   * until every replica had answered `status` once in that run (nginx's access log, in request order,
   * says which replica answered each).
   */
  async function untilEveryReplica(timeoutMs: number, request: () => Promise<number>, status: number, consecutive = 4): Promise<number> {
    const started = Date.now();
    for (;;) {
      const mark = logMark();
      const answeredAt: number[] = [];
      while (answeredAt.length < consecutive && (await request()) === status) answeredAt.push(Date.now());
      if (answeredAt.length === consecutive) {
        if (!nginx) return answeredAt[0]! - started;
        await replicasSince(mark, consecutive);
        const replicas = new Set(system.baseUrls.map(hostPort));
        const upstreams = nginx.routes().slice(mark).filter((route) => replicas.has(route.upstream)).map((route) => route.upstream);
        const everyOneAt = upstreams.findIndex((_, index) => new Set(upstreams.slice(0, index + 1)).size === replicas.size);
        if (everyOneAt >= 0 && everyOneAt < consecutive) return answeredAt[everyOneAt]! - started;
      }
      if (Date.now() - started > timeoutMs) throw new Error(`not every replica answered ${status} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async function holdStreams(count: number, key: string): Promise<OpenStream[]> {
    const opened = await Promise.all(Array.from({ length: count }, () => openLongStream(entry, key)));
    streams.push(...opened);
    return opened;
  }

  it('counts every pk_ request toward the rate across replicas and refuses the rest with a hard Retry-After', async () => {
    const { key } = await createKey(entry, owner, 'rate', { rateLimitPerMinute: 6 });
    const auth = { authorization: `Bearer ${key}` };
    const mark = logMark();
    const endpoints = ['/v1/credits', '/v1/credits/activity?limit=1', '/v1/voices?provider=local', '/v1/providers', '/v1/status'];
    for (const path of endpoints) expect((await fetch(`${entry}${path}`, { headers: auth })).status, path).toBe(200);
    expect((await speech(entry, key, TEN_CHARS)).status).toBe(200);

    for (const path of [...endpoints, '/v1/audio/speech']) {
      const response = path === '/v1/audio/speech' ? await speech(entry, key, TEN_CHARS) : await fetch(`${entry}${path}`, { headers: auth });
      expect(response.status, path).toBe(429);
      expect(await response.json()).toEqual({ error: 'rate_limited', code: 'rate_limit_exceeded', details: expect.stringContaining('6 requests per minute') });
      const seconds = retryAfter(response.headers);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThanOrEqual(60);
    }
    // Six allowed and six refused in one window, over both replicas: the window is shared.
    await expectBothReplicas(mark, 12);
    // The catalog with a session (it needs a token) is not counted against any key.
    expect((await fetch(`${entry}/v1/providers`, { headers: { authorization: `Bearer ${owner.token}` } })).status).toBe(200);
  });

  it('lets exactly maxConcurrency streams (the deployment default here) run across replicas; a slot frees when its stream ends', async () => {
    const { key } = await createKey(entry, owner, 'default concurrency');
    const mark = logMark();
    const before = streamCounts();
    const opened = await holdStreams(10, key);
    const running = opened.filter((stream) => stream.status === 200);
    const refused = opened.filter((stream) => stream.status === 429);
    expect(running).toHaveLength(DEFAULT_CONCURRENCY);
    expect(refused).toHaveLength(10 - DEFAULT_CONCURRENCY);
    for (const stream of refused) {
      expect(stream.body).toEqual({ error: 'concurrency_limited', code: 'concurrency_limit_exceeded', details: expect.stringContaining(`${DEFAULT_CONCURRENCY} speech streams`) });
      expect(retryAfter(stream.headers)).toBe(1);
    }
    if (mode === 'scaled') {
      // The running streams are still open (nginx has not logged them): their fakes say where they run.
      const admittedOn = streamCounts().map((count, index) => count - before[index]!);
      expect(admittedOn.reduce((sum, count) => sum + count, 0)).toBe(DEFAULT_CONCURRENCY);
      const refusedOn = await replicasSince(mark, refused.length);
      const used = new Set([...refusedOn, ...system.baseUrls.filter((_, index) => admittedOn[index]! > 0).map(hostPort)]);
      expect(used).toEqual(new Set(system.baseUrls.map(hostPort)));
    }
    // Nothing was reserved for the refused ones.
    const wallet = await api(entry, '/v1/credits', key);
    expect(wallet.status).toBe(200);

    running[0]!.close();
    await within(5_000, async () => {
      const next = await openLongStream(entry, key);
      streams.push(next);
      return next.status === 200;
    });
    for (const stream of running) stream.close();
  });

  it('never lets spend pass a key\'s cap or the wallet under 200 parallel requests over both replicas', async () => {
    const fresh = await person(entry, `caps-${mode}@example.com`);
    // A wallet that holds 20 requests, shared by a key capped at 5 requests a day, one capped at 12,
    // and one without a cap: however the 200 requests interleave, exactly 20 succeed (the wallet binds),
    // and neither capped key passes its cap.
    await system.admin('grant', '--email', fresh.email, '--usd', ((20 * TEN_CHARS_COST) / 1_000_000).toFixed(6));
    const generous = { maxConcurrency: 1000, rateLimitPerMinute: 100000 };
    const small = await createKey(entry, fresh, 'capped at 5', { ...generous, dailySpendCapMicros: 5 * TEN_CHARS_COST });
    const larger = await createKey(entry, fresh, 'capped at 12', { ...generous, monthlySpendCapMicros: 12 * TEN_CHARS_COST });
    const uncapped = await createKey(entry, fresh, 'uncapped', generous);
    const keys = [small.key, larger.key, uncapped.key];
    const mark = logMark();
    const results = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const key = keys[index % 3]!;
        const response = await speech(entry, key, TEN_CHARS);
        const body = response.status === 200 ? (await response.arrayBuffer(), undefined) : ((await response.json()) as Record<string, unknown>);
        return { key, status: response.status, body };
      }),
    );
    await expectBothReplicas(mark, 200);
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
    const wallet = await settled(entry, small.key);
    expect(wallet).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    expect(await system.admin('audit', '--email', fresh.email)).toMatchObject({ consistent: true, balanceMicros: 0, reservedMicros: 0 });

    // One key alone: exactly its cap, to the micro-dollar, and the 402 names the cap and its reset.
    await system.admin('grant', '--email', fresh.email, '--usd', '1');
    const exact = await createKey(entry, fresh, 'exact', { maxConcurrency: 1000, dailySpendCapMicros: 20 * TEN_CHARS_COST });
    const exactMark = logMark();
    const statuses = await Promise.all(Array.from({ length: 200 }, async () => {
      const response = await speech(entry, exact.key, TEN_CHARS);
      await response.arrayBuffer();
      return response.status;
    }));
    await expectBothReplicas(exactMark, 200);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20);
    const refused = await speech(entry, exact.key, TEN_CHARS);
    expect(refused.status).toBe(402);
    const tomorrow = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + 1)).toISOString();
    expect(await refused.json()).toEqual({ error: 'spend_limit_exceeded', code: 'daily_spend_cap_exceeded', details: expect.stringContaining(tomorrow) });
    expect((await settled(entry, exact.key)).balanceMicros).toBe(1_000_000 - 20 * TEN_CHARS_COST);
    expect(await system.admin('audit', '--email', fresh.email)).toMatchObject({ consistent: true, reservedMicros: 0 });
  });

  it('applies a PATCH on every replica within a second, and a monthly cap names the month', async () => {
    const { id, key } = await createKey(entry, owner, 'patched');
    // Warm every replica's key cache with the old limits.
    const mark = logMark();
    for (let request = 0; request < 4; request += 1) expect((await speech(entry, key, TEN_CHARS)).status).toBe(200);
    await expectBothReplicas(mark, 4);
    const patched = await patchKey(entry, owner, id, { monthlySpendCapMicros: 0, rateLimitPerMinute: 500 });
    expect(patched).toMatchObject({ status: 200, body: { id, monthlySpendCapMicros: 0, rateLimitPerMinute: 500 } });
    const speechStatus = async () => {
      const response = await speech(entry, key, TEN_CHARS);
      await response.arrayBuffer();
      return response.status;
    };
    expect(await untilEveryReplica(1_000, speechStatus, 402)).toBeLessThanOrEqual(1_000);
    const refused = await speech(entry, key, TEN_CHARS);
    const nextMonth = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + 1, 1)).toISOString();
    expect(await refused.json()).toEqual({ error: 'spend_limit_exceeded', code: 'monthly_spend_cap_exceeded', details: expect.stringContaining(nextMonth) });
    // Free speech is not spend: the local voice still answers.
    const free = await speech(entry, key, { ...LOCAL, input: 'free' });
    expect(free.status).toBe(200);
    await free.arrayBuffer();

    expect((await patchKey(entry, owner, id, { monthlySpendCapMicros: null })).status).toBe(200);
    expect(await untilEveryReplica(1_000, speechStatus, 200)).toBeLessThanOrEqual(1_000);
    expect(await patchKey(entry, owner, id, { maxConcurrency: 0 })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
  });

  it('stops a revoked key on every replica within a second', async () => {
    const { id, key } = await createKey(entry, owner, 'revoked');
    const creditsStatus = async () => (await api(entry, '/v1/credits', key)).status;
    // Every replica has the key in its cache when it is revoked.
    expect(await untilEveryReplica(5_000, creditsStatus, 200)).toBeGreaterThanOrEqual(0);
    expect(await api(entry, `/v1/keys/${id}`, owner.token, { method: 'DELETE' })).toMatchObject({ status: 200, body: { deleted: true } });
    expect(await untilEveryReplica(1_000, creditsStatus, 401)).toBeLessThanOrEqual(1_000);
    const refused = await speech(entry, key, TEN_CHARS);
    expect(refused.status).toBe(401);
  });

  it('refuses local synthesis with 503 and Retry-After while its bounded queue is full', async () => {
    // The queue belongs to one process: both requests go to the same replica, directly.
    const { key } = await createKey(entry, owner, 'local');
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

  it.runIf(mode === 'scaled')('frees the slots of a SIGKILLed replica within the lease TTL, and only those', async () => {
    const { key } = await createKey(entry, owner, 'crash', { maxConcurrency: 2 });
    const before = streamCounts();
    const held = await holdStreams(2, key);
    expect(held.map((stream) => stream.status)).toEqual([200, 200]);
    expect((await openLongStream(entry, key)).status).toBe(429);
    // Kill a replica that holds at least one of the two slots; the other replica's slot stays taken.
    const heldOn = streamCounts().map((count, index) => count - before[index]!);
    const victim = heldOn.findIndex((count) => count > 0);
    const freed = heldOn[victim]!;
    system.kill(`data-plane-${victim + 1}`);
    const killedAt = Date.now();
    for (let slot = 0; slot < freed; slot += 1) {
      await within(LEASE_TTL_MS + 2_000 - (Date.now() - killedAt), async () => {
        const next = await openLongStream(entry, key);
        streams.push(next);
        return next.status === 200;
      }, 100);
    }
    expect(Date.now() - killedAt).toBeLessThanOrEqual(LEASE_TTL_MS + 2_000);
    // Exactly the dead replica's slots came back: the key is full again.
    const over = await openLongStream(entry, key);
    streams.push(over);
    expect(over.status).toBe(429);
  });
});
