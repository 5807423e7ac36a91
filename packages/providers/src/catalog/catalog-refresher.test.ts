// The catalog's live refresh against the provider doubles: live lists replace the built-in ones, a failing voice
// API keeps the last good list, the background timer refreshes, claims stop duplicate work, smoke tests
// move lastSmokeTest.

import { ELEVENLABS_CLONED_VOICE_ID, CARTESIA_CLONED_VOICE_ID, startFakeProviders, type CombinedFakeProviderServer } from '../testing/index.js';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cartesiaProvider } from '../cartesia/index.js';
import { elevenLabsProvider } from '../elevenlabs/index.js';
import { openAIProvider } from '../openai/index.js';
import { createProviderRegistry, type ProviderRegistry } from '../registry.js';
import { NEVER_SMOKE_TESTED, type VoiceDescriptor } from '../types.js';
import { refreshVoiceCatalog, smokeTestProviders, startCatalogRefresher } from './catalog-refresher.js';
import { CatalogState, type StoredCatalogEntry } from './catalog-state.js';
import type { CatalogStore, CatalogTask } from './catalog-store.js';

let fake: CombinedFakeProviderServer;
let registry: ProviderRegistry;
let state: CatalogState;
const warnings: Array<[string, Record<string, unknown> | undefined]> = [];
const logger = { info: () => undefined, warn: (message: string, fields?: Record<string, unknown>) => void warnings.push([message, fields]) };

beforeEach(async () => {
  fake = await startFakeProviders();
  registry = createProviderRegistry(
    {
      attemptTimeoutMs: 2000, maxAttempts: 1,
      providers: {
        openai: { apiKey: fake.apiKey, baseUrl: fake.baseUrlFor('openai') },
        elevenlabs: { apiKey: fake.apiKey, baseUrl: fake.baseUrlFor('elevenlabs') },
        cartesia: { apiKey: fake.apiKey, baseUrl: fake.baseUrlFor('cartesia') },
      },
    },
    [openAIProvider, elevenLabsProvider, cartesiaProvider],
  );
  state = new CatalogState(() => registry.list());
  warnings.length = 0;
});
afterEach(async () => {
  await registry.close();
  await fake.close();
});

const ids = (voices: VoiceDescriptor[]) => voices.map((voice) => voice.id);
const listingRequests = () => fake.requests.filter((request) => request.method === 'GET' && /^\/(v2\/)?voices/.test(request.path)).length;

/** The SQL store's claim rule, in memory. */
function memoryStore(): CatalogStore & { rows: Map<string, StoredCatalogEntry> } {
  const claims = new Map<string, number>();
  const rows = new Map<string, StoredCatalogEntry>();
  const row = (id: string) => rows.get(id) ?? { providerId: id, updatedAt: new Date() };
  return {
    rows,
    async claim(providerId: string, task: CatalogTask, intervalMs: number) {
      const key = `${providerId}:${task}`;
      const last = claims.get(key);
      if (last !== undefined && Date.now() - last < intervalMs) return false;
      claims.set(key, Date.now());
      return true;
    },
    async saveVoices(providerId, voices, refreshedAt) {
      rows.set(providerId, { ...row(providerId), voices, voicesRefreshedAt: refreshedAt, updatedAt: new Date() });
    },
    async recordVoicesFailure() {},
    async recordSmokeTest(providerId, outcome) {
      if (outcome.ok) rows.set(providerId, { ...row(providerId), lastSmokeTestAt: outcome.at, updatedAt: new Date() });
    },
    async load() {
      return [...rows.values()];
    },
  };
}

describe('voice catalog refresh', () => {
  it('replaces built-in lists with live ones; fixed-voice providers keep theirs', async () => {
    expect(ids(state.voices('elevenlabs'))).not.toContain(ELEVENLABS_CLONED_VOICE_ID);
    const before = state.version;
    const outcomes = await refreshVoiceCatalog({ registry, state, logger, listingTimeoutMs: 5000 });
    expect(outcomes.map((outcome) => [outcome.providerId, outcome.result])).toEqual([['elevenlabs', 'refreshed'], ['cartesia', 'refreshed']]);
    expect(ids(state.voices('elevenlabs'))).toContain(ELEVENLABS_CLONED_VOICE_ID);
    expect(ids(state.voices('cartesia'))).toContain(CARTESIA_CLONED_VOICE_ID);
    expect(ids(state.voices('openai'))).toContain('alloy');
    expect(state.version).toBeGreaterThan(before);
  });

  it('keeps the last good list when the voice API fails, and logs no upstream text', async () => {
    await refreshVoiceCatalog({ registry, state, logger, listingTimeoutMs: 5000 });
    const good = state.voices('elevenlabs');
    const version = state.version;
    fake.setBehavior({ status: 500, markEveryField: true });
    const outcomes = await refreshVoiceCatalog({ registry, state, logger, listingTimeoutMs: 5000 });
    expect(outcomes.every((outcome) => outcome.result === 'failed' && outcome.failure === 'server_error')).toBe(true);
    expect(state.voices('elevenlabs')).toBe(good);
    expect(state.version).toBe(version);
    expect(warnings).toHaveLength(2);
    expect(JSON.stringify(warnings)).not.toContain(fake.leakMarker);
  });

  it('refreshes in the background on its interval', async () => {
    const refresher = startCatalogRefresher({
      registry, state, logger, listingTimeoutMs: 5000, voiceIntervalMs: 40, smokeTestIntervalMs: 0, smokeTestTimeoutMs: 5000,
    });
    await refresher.ready;
    expect(ids(state.voices('cartesia'))).toContain(CARTESIA_CLONED_VOICE_ID);
    const first = listingRequests();
    await vi.waitFor(() => expect(listingRequests()).toBeGreaterThanOrEqual(first + 4), { timeout: 10_000, interval: 20 });
    await refresher.stop();
  });

  it('makes one call per interval however many refreshers share a store', async () => {
    const store = memoryStore();
    const other = new CatalogState(() => registry.list());
    const settings = { registry, logger, listingTimeoutMs: 5000, store, claimIntervalMs: 60_000 };
    const [first, second] = await Promise.all([refreshVoiceCatalog({ ...settings, state }), refreshVoiceCatalog({ ...settings, state: other })]);
    const results = [...first!, ...second!].map((outcome) => outcome.result).sort();
    expect(results).toEqual(['refreshed', 'refreshed', 'skipped', 'skipped']);
    expect(listingRequests()).toBe(2);
    // A follower adopts what the refresher stored.
    const follower = new CatalogState(() => registry.list());
    follower.applyStored(await store.load());
    expect(ids(follower.voices('elevenlabs'))).toContain(ELEVENLABS_CLONED_VOICE_ID);
  });
});

describe('smoke tests', () => {
  it('a successful smoke synthesis sets lastSmokeTest; a failed one leaves it', async () => {
    expect(state.lastSmokeTest('elevenlabs')).toBe(NEVER_SMOKE_TESTED);
    const store = memoryStore();
    const [outcome] = await smokeTestProviders({ registry, state, logger, store, listingTimeoutMs: 5000, timeoutMs: 5000, providerIds: ['elevenlabs'] });
    expect(outcome).toMatchObject({ providerId: 'elevenlabs', ok: true });
    const at = state.lastSmokeTest('elevenlabs');
    expect(new Date(at).toISOString()).toBe(at);
    expect(store.rows.get('elevenlabs')?.lastSmokeTestAt?.toISOString()).toBe(at);
    const synthesis = fake.requests.find((request) => request.method === 'POST')!;
    expect(synthesis.path).toMatch(/^\/v1\/text-to-speech\/[^/]+\/stream/);

    fake.setBehavior({ status: 401 });
    const [failed] = await smokeTestProviders({ registry, state, logger, listingTimeoutMs: 5000, timeoutMs: 5000, providerIds: ['elevenlabs'] });
    expect(failed).toEqual({ providerId: 'elevenlabs', ok: false, failure: 'upstream_auth_failed' });
    expect(state.lastSmokeTest('elevenlabs')).toBe(at);
  });

  it('runs on its interval when one is set, and never when it is 0 (the default)', async () => {
    const smokeRequests = () => fake.requests.filter((request) => request.method === 'POST').length;
    const settings = { registry, state, logger, listingTimeoutMs: 5000, voiceIntervalMs: 60_000, smokeTestTimeoutMs: 5000 };
    const off = startCatalogRefresher({ ...settings, smokeTestIntervalMs: 0 });
    await off.ready;
    await new Promise((resolve) => setTimeout(resolve, 200));
    await off.stop();
    expect(smokeRequests()).toBe(0);
    expect(state.lastSmokeTest('openai')).toBe(NEVER_SMOKE_TESTED);

    const on = startCatalogRefresher({ ...settings, smokeTestIntervalMs: 50 });
    await on.ready;
    // Two rounds at least: one synthesis per configured provider each time.
    await vi.waitFor(() => expect(smokeRequests()).toBeGreaterThanOrEqual(6), { timeout: 10_000, interval: 20 });
    await on.stop();
    for (const id of ['openai', 'elevenlabs', 'cartesia']) expect(state.lastSmokeTest(id)).not.toBe(NEVER_SMOKE_TESTED);
  });

  it('tests every configured provider by default', async () => {
    const outcomes = await smokeTestProviders({ registry, state, logger, listingTimeoutMs: 5000, timeoutMs: 5000 });
    expect(outcomes.map((outcome) => [outcome.providerId, outcome.ok])).toEqual([['openai', true], ['elevenlabs', true], ['cartesia', true]]);
    expect(fake.requests.filter((request) => request.method === 'POST')).toHaveLength(3);
  });
});
