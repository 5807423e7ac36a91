// The live catalog end to end, in real processes against the ElevenLabs and Cartesia doubles: voices come from
// the providers' voice APIs (paged, the account's clones included) on every data plane, filters apply, a
// failing voice API keeps the last good list, and a smoke test moves lastSmokeTest. Embedded: the process
// refreshes itself. Scaled out: the worker refreshes into PostgreSQL and both data planes follow it.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CARTESIA_CLONED_VOICE_ID, ELEVENLABS_CLONED_VOICE_ID, startFakeProviders, type CombinedFakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { fundedKey, startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('the live catalog suite in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

interface Voice { id: string; provider: string; name: string; language: string; labels: Record<string, string>; preview_url?: string; model_compatibility: string[] }
interface Provider { id: string; capabilities: { lastSmokeTest: string } }

describe.each(modes)('live catalog (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;
  let key: string;
  let providerEnvironment: Record<string, string>;

  const get = async <T>(baseUrl: string, path: string): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(200);
    return (await response.json()) as T;
  };
  const voices = async (baseUrl: string, query = '') => (await get<{ voices: Voice[] }>(baseUrl, `/v1/voices${query}`)).voices;
  const voiceListings = () => fake.requests.filter((request) => request.method === 'GET' && /^\/(v2\/)?voices\?/.test(request.path));

  beforeAll(async () => {
    fake = await startFakeProviders();
    providerEnvironment = {
      OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
      ELEVENLABS_API_KEY: fake.apiKey, ELEVENLABS_BASE_URL: fake.baseUrlFor('elevenlabs'),
      CARTESIA_API_KEY: fake.apiKey, CARTESIA_BASE_URL: fake.baseUrlFor('cartesia'),
    };
    system = await startSystem({
      mode,
      environment: { ...providerEnvironment, VOICE_CATALOG_REFRESH_MS: '1000', CATALOG_SYNC_INTERVAL_MS: '200' },
    });
    key = (await fundedKey(system, '0')).key;
  });

  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('lists every provider\'s live voices, clones included, on every data plane', async () => {
    for (const baseUrl of system.baseUrls) {
      await vi.waitFor(async () => {
        const ids = (await voices(baseUrl)).map((voice) => voice.id);
        expect(ids).toContain(ELEVENLABS_CLONED_VOICE_ID);
        expect(ids).toContain(CARTESIA_CLONED_VOICE_ID);
      }, { timeout: 30_000, interval: 200 });
    }
    const all = await voices(system.baseUrl);
    expect(all.filter((voice) => voice.provider === 'elevenlabs')).toHaveLength(9);
    expect(all.filter((voice) => voice.provider === 'cartesia')).toHaveLength(8);
    // Fixed-voice providers keep their built-in lists.
    expect(all.some((voice) => voice.provider === 'openai' && voice.id === 'alloy')).toBe(true);
    // The spec's types: strings are strings, never null; preview_url is absent rather than null.
    for (const voice of all) {
      expect(typeof voice.language).toBe('string');
      expect(Object.values(voice.labels).every((label) => typeof label === 'string')).toBe(true);
      expect('preview_url' in voice ? typeof voice.preview_url : 'string').toBe('string');
    }
    const rachel = all.find((voice) => voice.id === '21m00Tcm4TlvDq8ikWAM')!;
    expect(rachel.preview_url).toMatch(/\/__previews\/elevenlabs\//);
    expect(rachel.model_compatibility).toContain('eleven_flash_v2_5');
  });

  it('applies the spec\'s filters to the live lists', async () => {
    const french = await voices(system.baseUrl, '?provider=cartesia&language=fr');
    expect(french.map((voice) => voice.id)).toEqual([CARTESIA_CLONED_VOICE_ID]);
    const german = await voices(system.baseUrl, '?provider=elevenlabs&language=DE');
    expect(german.map((voice) => voice.id)).toEqual([ELEVENLABS_CLONED_VOICE_ID]);
    const female = await voices(system.baseUrl, '?provider=elevenlabs,cartesia&gender=FEMALE&language=en');
    expect(female.length).toBeGreaterThan(0);
    expect(female.every((voice) => voice.labels.gender === 'female' && voice.language.startsWith('en-'))).toBe(true);
    expect(new Set(female.map((voice) => voice.provider))).toEqual(new Set(['elevenlabs', 'cartesia']));
  });

  it('keeps the last good list while a voice API fails, and refreshes again after', async () => {
    fake.setBehavior({ status: 500, markEveryField: true });
    const before = voiceListings().length;
    await vi.waitFor(() => expect(voiceListings().slice(before).filter((request) => request.status === 500).length).toBeGreaterThanOrEqual(2), {
      timeout: 30_000, interval: 100,
    });
    for (const baseUrl of system.baseUrls) {
      const ids = (await voices(baseUrl)).map((voice) => voice.id);
      expect(ids).toContain(ELEVENLABS_CLONED_VOICE_ID);
      expect(ids).toContain(CARTESIA_CLONED_VOICE_ID);
    }
    fake.setBehavior('normal');
    const recovered = voiceListings().length;
    await vi.waitFor(() => expect(voiceListings().slice(recovered).filter((request) => request.status === 200).length).toBeGreaterThanOrEqual(2), {
      timeout: 30_000, interval: 100,
    });
    expect(system.logs()).not.toContain(fake.leakMarker);
    expect(system.logs()).toContain('voice catalog refresh failed');
  });

  it('a smoke test run now moves lastSmokeTest on every data plane; the others stay "never"', async () => {
    const providers = async (baseUrl: string) => (await get<{ providers: Provider[] }>(baseUrl, '/v1/providers')).providers;
    expect((await providers(system.baseUrl)).every((provider) => provider.capabilities.lastSmokeTest === 'never')).toBe(true);
    // Scaled out, the admin CLI runs the synthesis itself with the operator's provider settings.
    const result = await system.adminWith(mode === 'scaled' ? providerEnvironment : {}, 'smoke-test', '--provider', 'cartesia');
    expect(result).toMatchObject({ results: [{ providerId: 'cartesia', ok: true }] });
    const at = (result.results as Array<{ at: string }>)[0]!.at;
    for (const baseUrl of system.baseUrls) {
      await vi.waitFor(async () => {
        const byId = new Map((await providers(baseUrl)).map((provider) => [provider.id, provider.capabilities.lastSmokeTest]));
        expect(byId.get('cartesia')).toBe(at);
        expect(byId.get('elevenlabs')).toBe('never');
      }, { timeout: 10_000, interval: 100 });
    }
    expect(fake.requests.some((request) => request.method === 'POST' && request.path === '/tts/bytes')).toBe(true);
  });
});
