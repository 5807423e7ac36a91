// Allowances end to end, in both run modes: a hot key's requests are paid from an allowance its data
// plane holds (no database round trip per request), the books come out exact, what is not spent goes
// back to the wallet when the traffic stops, and a wallet near empty is served to its last request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { activity, credits, settled, speech } from './e2e-support.js';
import { parseMetrics, valueOf } from './metrics-text.js';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('allowances end to end in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const INPUT = 'ten chars!';
const COST = INPUT.length * 15; // openai/tts-1: 15 micro-dollars a character

/** `total` requests, `concurrency` at a time, spread over the given data planes; the statuses seen. */
async function load(baseUrls: string[], key: string, total: number, concurrency: number): Promise<Record<number, number>> {
  const statuses: Record<number, number> = {};
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const index = next++;
      const response = await speech(baseUrls[index % baseUrls.length]!, key, { model: 'openai/tts-1', voice: 'alloy', input: INPUT });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }
  }));
  return statuses;
}

/** A system (and the fake upstream it calls) for one suite, stopped after it: keys may run 1,000 streams. */
function startAllowanceSystem(mode: SystemMode, allowances: { hotRequestsPerSecond: number; idleMs: number }): () => Promise<RunningSystem> {
  let fake: CombinedFakeProviderServer | undefined;
  let system: RunningSystem | undefined;
  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });
  return async () => {
    fake = await startFakeProviders({ totalBytes: 2_048, chunkBytes: 2_048 });
    system = await startSystem({
      mode,
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        DEFAULT_KEY_MAX_CONCURRENCY: '1000', DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
        ALLOWANCE_HOT_REQUESTS_PER_SECOND: String(allowances.hotRequestsPerSecond), ALLOWANCE_IDLE_MS: String(allowances.idleMs),
      },
    });
    return system;
  };
}

describe.each(modes)('allowances (%s mode)', (mode) => {
  let system: RunningSystem;
  const started = startAllowanceSystem(mode, { hotRequestsPerSecond: 10, idleMs: 300 });
  beforeAll(async () => {
    system = await started();
  });

  it('pays a hot key from allowances; exact books; the unspent part returns when traffic stops', async () => {
    const funded = 2_000 * COST;
    const wallet = await fundedKey(system, (funded / 1_000_000).toFixed(6));
    const statuses = await load(system.baseUrls, wallet.key, 600, 40);
    expect(statuses).toEqual({ 200: 600 });
    // Settled and returned: nothing stays reserved, and exactly the 600 requests were charged.
    expect(await settled(system.baseUrl, wallet.key)).toEqual({ balanceMicros: funded - 600 * COST, reservedMicros: 0 });
    // Most requests reserved nothing of their own: an allowance paid for them, and a handful of
    // allowances (one database round trip each) paid for hundreds of requests.
    let payments = 0;
    let opened = 0;
    for (const [name, url] of Object.entries(system.metricsUrls)) {
      if (name === 'control-plane' || name === 'worker') continue;
      const samples = parseMetrics(await (await fetch(`${url}/metrics`)).text());
      payments += valueOf(samples, 'voice_router_allowance_payments_total');
      opened += valueOf(samples, 'voice_router_allowances_opened_total');
      expect(valueOf(samples, 'voice_router_allowances_unspent_micros')).toBe(0);
    }
    expect(payments).toBeGreaterThan(400);
    expect(opened).toBeGreaterThan(0);
    expect(opened).toBeLessThan(payments / 10);
    const rows = await activity(system.baseUrl, wallet.key, 100);
    expect(rows.filter((row) => row.kind === 'commit').length).toBeGreaterThan(50);
    expect(rows.every((row) => row.kind !== 'commit' || row.microsDelta === -COST)).toBe(true);
    const audit = await system.admin('audit', '--email', wallet.email);
    expect(audit).toMatchObject({ consistent: true, reservedMicros: 0, balanceMicros: funded - 600 * COST });
  });

  it('serves a wallet to its last request: exactly what it can pay for succeeds, the rest get 402', async () => {
    const affordable = 400;
    const wallet = await fundedKey(system, ((affordable * COST) / 1_000_000).toFixed(6));
    // One data plane: it returns its own allowance before it refuses anyone (the suite below: several).
    const statuses = await load([system.baseUrls[0]!], wallet.key, affordable + 150, 40);
    expect(statuses).toEqual({ 200: affordable, 402: 150 });
    expect(await settled(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    const audit = await system.admin('audit', '--email', wallet.email);
    expect(audit).toMatchObject({ consistent: true, reservedMicros: 0, balanceMicros: 0, sumOfDeltas: 0 });
    expect(await credits(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 0, reservedMicros: 0 });
  });
});

// Two data planes, allowances kept for up to 10 s: the first holds one for the account while the second
// serves the wallet to its end. Refused, the second asks the first (through Redis) for what it holds.
describe.runIf(scaledAvailable)('allowances across data planes (scaled mode)', () => {
  let system: RunningSystem;
  const started = startAllowanceSystem('scaled', { hotRequestsPerSecond: 4, idleMs: 10_000 });
  beforeAll(async () => {
    system = await started();
  });

  it('a data plane refused at the end of a wallet gets what another one holds: exactly what the wallet can pay for succeeds', async () => {
    const [first, second] = system.baseUrls;
    expect(second).toBeDefined();
    const affordable = 200;
    const wallet = await fundedKey(system, ((affordable * COST) / 1_000_000).toFixed(6));
    // The first data plane sees the account hot and takes an allowance (1/20 of what is spendable).
    expect(await load([first!], wallet.key, 6, 1)).toEqual({ 200: 6 });
    const held = async () => {
      const samples = parseMetrics(await (await fetch(`${system.metricsUrls['data-plane-1']}/metrics`)).text());
      return valueOf(samples, 'voice_router_allowances_unspent_micros');
    };
    expect(await held()).toBeGreaterThanOrEqual(COST);
    // The second serves the rest, until the wallet is dry.
    const statuses = await load([second!], wallet.key, affordable, 20);
    expect(statuses).toEqual({ 200: affordable - 6, 402: 6 });
    expect(await held()).toBe(0);
    expect(await settled(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    const audit = await system.admin('audit', '--email', wallet.email);
    expect(audit).toMatchObject({ consistent: true, reservedMicros: 0, balanceMicros: 0, sumOfDeltas: 0 });
  });
});
