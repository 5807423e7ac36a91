// Prometheus metrics end to end: real router processes, scraped on their METRICS_PORT before and after a
// speech request, refused requests (a rate limit, a 402) and a breaker opening; the numbers must move.
// Embedded: one process, one listener. Scaled out: each data plane, the control plane and the worker
// serve their own. The public ports never serve /metrics.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { speech } from './e2e-support.js';
import { scrape, valueOf, type Sample } from './metrics-text.js';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('the metrics suite in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const BODY = { model: 'openai/tts-1', voice: 'alloy', input: 'Metrics test' };
const RATE_LIMIT = 4;
const SPEECH = '/v1/audio/speech';

async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(modes)('metrics end to end (%s mode)', (mode) => {
  let fake: FakeProviderServer;
  let system: RunningSystem;
  let baseUrl: string;
  /** The metrics of the process that serves baseUrl. */
  let servingMetrics: string;
  let before: Sample[];
  let after: Sample[];
  const moved = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);

  beforeAll(async () => {
    fake = await startFakeProvider('openai', { chunkBytes: 4096 });
    system = await startSystem({
      mode,
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrl,
        UPSTREAM_MAX_ATTEMPTS: '2', UPSTREAM_ATTEMPT_TIMEOUT_MS: '3000',
        BREAKER_FAILURE_THRESHOLD: '2', BREAKER_COOLDOWN_MS: '600000',
        DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
      },
    });
    baseUrl = system.baseUrls[0]!;
    servingMetrics = system.metricsUrls[mode === 'embedded' ? 'embedded' : 'data-plane-1']!;
    // Each step uses its own key: the rate limit is per key.
    const [paying, limited, broke, failing] = await Promise.all([
      fundedKey(system, '1'), fundedKey(system, '1'), fundedKey(system, '0'), fundedKey(system, '1'),
    ]);
    before = await scrape(servingMetrics);

    const ok = await speech(baseUrl, paying.key, BODY);
    expect(ok.status).toBe(200);
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(0);

    for (let request = 0; request < RATE_LIMIT; request += 1) {
      const response = await fetch(`${baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${limited.key}` } });
      expect(response.status).toBe(200);
    }
    const rateLimited = await speech(baseUrl, limited.key, BODY);
    expect(rateLimited.status).toBe(429);

    const unpaid = await speech(baseUrl, broke.key, BODY);
    expect(unpaid.status).toBe(402);

    // Two requests that fail upstream (each after one retry) open the breaker; the third is refused.
    fake.setBehavior({ status: 500 });
    for (let failure = 0; failure < 2; failure += 1) expect((await speech(baseUrl, failing.key, BODY)).status).toBe(502);
    const refused = await speech(baseUrl, failing.key, BODY);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('x-router-breaker-state')).toBe('open');
    await refused.arrayBuffer();
    fake.setBehavior('normal');

    // Settled (committed or voided) before the snapshot: the wallet API would count toward the rate limit.
    const settling = system.metricsUrls[mode === 'embedded' ? 'embedded' : 'worker']!;
    await eventually(async () => valueOf(await scrape(settling), 'voice_router_reservations_open') === 0);
    after = await scrape(servingMetrics);
  }, 180_000);

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('counts responses by route template, status and provider', () => {
    const requests = 'voice_router_http_requests_total';
    expect(moved(requests, { route: SPEECH, status: '200', provider: 'openai' })).toBe(1);
    // Refused before the request was read for a provider: no provider label value.
    expect(moved(requests, { route: SPEECH, status: '429', provider: '' })).toBe(1);
    expect(moved(requests, { route: SPEECH, status: '402', provider: 'openai' })).toBe(1);
    expect(moved(requests, { route: SPEECH, status: '502', provider: 'openai' })).toBe(2);
    expect(moved(requests, { route: SPEECH, status: '503', provider: 'openai' })).toBe(1);
    expect(moved(requests, { route: '/v1/credits', status: '200', provider: '' })).toBe(RATE_LIMIT);
    // Templates only: no raw path ever becomes a label value.
    expect(after.filter((sample) => sample.name === requests).every((sample) => !sample.labels.route!.includes('?'))).toBe(true);
  });

  it('measures time to first audio and the audio streamed', () => {
    expect(moved('voice_router_time_to_first_audio_seconds_count', { provider: 'openai' })).toBe(1);
    expect(moved('voice_router_time_to_first_audio_seconds_sum', { provider: 'openai' })).toBeGreaterThan(0);
    expect(moved('voice_router_speech_audio_bytes_total')).toBeGreaterThan(0);
    expect(valueOf(after, 'voice_router_speech_streams_active')).toBe(0);
    expect(valueOf(after, 'voice_router_speech_backlog_bytes')).toBe(0);
  });

  it('counts upstream attempts, retries, the breaker opening and its state', () => {
    expect(moved('voice_router_upstream_attempts_total', { provider: 'openai', outcome: 'ok' })).toBe(1);
    expect(moved('voice_router_upstream_attempts_total', { provider: 'openai', outcome: 'upstream_server_error' })).toBe(4);
    expect(moved('voice_router_upstream_retries_total', { provider: 'openai' })).toBe(2);
    expect(moved('voice_router_breaker_opened_total', { provider: 'openai' })).toBe(1);
    expect(valueOf(before, 'voice_router_breaker_state', { provider: 'openai', state: 'closed' })).toBe(1);
    expect(valueOf(after, 'voice_router_breaker_state', { provider: 'openai', state: 'open' })).toBe(1);
    expect(valueOf(after, 'voice_router_breaker_state', { provider: 'openai', state: 'closed' })).toBe(0);
  });

  it('counts limit refusals by kind', () => {
    expect(moved('voice_router_limit_refusals_total', { kind: 'rate' })).toBe(1);
    expect(moved('voice_router_limit_refusals_total', { kind: 'concurrency' })).toBe(0);
  });

  it('says which HTTP server the data plane runs, and settles what it decided', () => {
    const info = after.filter((sample) => sample.name === 'voice_router_http_server_info');
    expect(info).toHaveLength(1);
    expect(info[0]!.value).toBe(1);
    expect(['uws-native', 'node-http']).toContain(info[0]!.labels.implementation);
    expect(info[0]!.labels.node).toBe(process.version);
    expect(valueOf(after, 'voice_router_settlements_pending')).toBe(0);
    expect(after.some((sample) => sample.name === 'process_cpu_seconds_total')).toBe(true);
  });

  it('reports open reservations and settlement where settlement runs', async () => {
    const settling = system.metricsUrls[mode === 'embedded' ? 'embedded' : 'worker']!;
    const samples = await scrape(settling);
    expect(valueOf(samples, 'voice_router_reservations_open')).toBe(0);
    expect(valueOf(samples, 'voice_router_reservations_oldest_open_seconds')).toBe(0);
    expect(samples.some((sample) => sample.name === 'voice_router_reaper_voids_total')).toBe(true);
    if (mode === 'scaled') {
      // The worker applied the commit and the two voids the data plane queued.
      await eventually(async () => {
        const now = await scrape(settling);
        return valueOf(now, 'voice_router_settlements_applied_total', { action: 'commit', outcome: 'settled' }) >= 1
          && valueOf(now, 'voice_router_settlements_applied_total', { action: 'void', outcome: 'settled' }) >= 2;
      });
      expect(valueOf(samples, 'voice_router_settlement_queue_jobs', { state: 'waiting' })).toBe(0);
      expect(valueOf(samples, 'voice_router_settlement_queue_lag_seconds')).toBe(0);
    }
  });

  it('counts control-plane requests by route template (its own listener when scaled out)', async () => {
    const controlMetrics = system.metricsUrls[mode === 'embedded' ? 'embedded' : 'control-plane']!;
    const beforeControl = await scrape(controlMetrics);
    expect((await fetch(`${baseUrl}/v1/openapi.json`)).status).toBe(200);
    const afterControl = await scrape(controlMetrics);
    const labels = { route: '/v1/openapi.json', status: '200', provider: '' };
    expect(valueOf(afterControl, 'voice_router_http_requests_total', labels) - valueOf(beforeControl, 'voice_router_http_requests_total', labels)).toBe(1);
  });

  it('never serves /metrics on a public port', async () => {
    const publicUrls = [...system.baseUrls, ...(system.controlPlaneUrl ? [system.controlPlaneUrl] : [])];
    for (const url of publicUrls) {
      const response = await fetch(`${url}/metrics`);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('voice_router_');
    }
  });
});
