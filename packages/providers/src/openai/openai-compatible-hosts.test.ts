// OpenAI-compatible hosts declared by OPENAI_COMPATIBLE_* settings: parsing (good and bad) and a request through
// a configured host end to end (registry, price override, catalog) against the OpenAI double.

import { afterEach, describe, expect, it } from 'vitest';
import { parsePricingOverrides } from '../pricing/pricing-overrides.js';
import { providerModules } from '../provider-list.js';
import { createProviderRegistry, type ProviderRegistry } from '../registry.js';
import { startFakeProvider, type FakeProviderServer } from '../testing/index.js';
import { collect, openAIInput } from '../__fixtures__/speech-helpers.js';
import { buildOpenAICompatibleSpeechRequest, openAISpeechSettings } from './openai-speech-model.js';
import { openAICompatibleHostModules, openAICompatibleHostSettings, parseOpenAICompatibleHosts } from './openai-compatible-hosts.js';

const builtIn = providerModules.map((module) => module.id);

describe('parseOpenAICompatibleHosts', () => {
  it('reads each OPENAI_COMPATIBLE_<NAME>_* group as one host, id lower-cased with - for _', () => {
    const hosts = parseOpenAICompatibleHosts(
      {
        OPENAI_COMPATIBLE_DEEP_INFRA_BASE_URL: 'https://api.deepinfra.com/v1/openai',
        OPENAI_COMPATIBLE_DEEP_INFRA_API_KEY: 'di-key',
        OPENAI_COMPATIBLE_DEEP_INFRA_MODELS: 'hexgrad/Kokoro-82M=0.8, canopylabs/orpheus-3b-0.1-ft=7 ,',
        OPENAI_COMPATIBLE_DEEP_INFRA_VOICES: 'af_bella, am_adam',
        OPENAI_COMPATIBLE_KOKORO_BASE_URL: 'http://127.0.0.1:8880/v1',
        OPENAI_COMPATIBLE_KOKORO_MODELS: 'kokoro=0',
        OPENAI_COMPATIBLE_KOKORO_MAX_INPUT_CHARACTERS: '10000',
        OPENAI_COMPATIBLE_KOKORO_VOICES: '',
        OPENAI_API_KEY: 'not a host variable',
      },
      builtIn,
    );
    expect(hosts).toEqual([
      {
        id: 'deep-infra',
        prefix: 'OPENAI_COMPATIBLE_DEEP_INFRA',
        baseUrl: 'https://api.deepinfra.com/v1/openai',
        apiKey: 'di-key',
        models: [{ id: 'hexgrad/Kokoro-82M', microsPerCharacter: 0.8 }, { id: 'canopylabs/orpheus-3b-0.1-ft', microsPerCharacter: 7 }],
        voices: ['af_bella', 'am_adam'],
        maxInputCharacters: 4096,
      },
      { id: 'kokoro', prefix: 'OPENAI_COMPATIBLE_KOKORO', baseUrl: 'http://127.0.0.1:8880/v1', models: [{ id: 'kokoro', microsPerCharacter: 0 }], voices: [], maxInputCharacters: 10000 },
    ]);
  });

  it.each([
    [{ OPENAI_COMPATIBLE_X_BASEURL: 'https://x/v1' }, 'OPENAI_COMPATIBLE_X_BASEURL is not recognised'],
    [{ OPENAI_COMPATIBLE_X_MODELS: 'm=1' }, 'OPENAI_COMPATIBLE_X_BASE_URL is required'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1' }, 'OPENAI_COMPATIBLE_X_MODELS is required'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'ftp://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm=1' }, 'OPENAI_COMPATIBLE_X_BASE_URL must be an http(s) URL'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm' }, 'OPENAI_COMPATIBLE_X_MODELS: model m has no price; write m=<US dollars per 1M characters> (0 for free)'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm=-1' }, 'OPENAI_COMPATIBLE_X_MODELS: the price of model m must be'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm=1e3' }, 'the price of model m must be'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm=1,m=2' }, 'model m is listed twice'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: ' , ' }, 'OPENAI_COMPATIBLE_X_MODELS: list at least one model'],
    [{ OPENAI_COMPATIBLE_X_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_X_MODELS: 'm=1', OPENAI_COMPATIBLE_X_MAX_INPUT_CHARACTERS: '0' }, 'MAX_INPUT_CHARACTERS must be an integer'],
    [{ OPENAI_COMPATIBLE_GROQ_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_GROQ_MODELS: 'm=1' }, 'the id groq is a built-in provider\'s; choose another <NAME>'],
    [{ OPENAI_COMPATIBLE_OPENAI_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_OPENAI_MODELS: 'm=1' }, 'the id openai is a built-in provider\'s'],
    [{ OPENAI_COMPATIBLE_My_Host_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_My_Host_MODELS: 'm=1' }, 'OPENAI_COMPATIBLE_My_Host_*: <NAME> must be upper-case'],
    [{ OPENAI_COMPATIBLE_A__B_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_A__B_MODELS: 'm=1' }, '"a--b", which must match [a-z0-9-]+'],
  ])('refuses %j with a message naming the variable', (environment, message) => {
    expect(() => parseOpenAICompatibleHosts(environment, builtIn)).toThrow(message);
  });

  it('declares nothing when no variable is set', () => {
    expect(parseOpenAICompatibleHosts({ OPENAI_API_KEY: 'k' }, builtIn)).toEqual([]);
  });
});

describe('a configured host', () => {
  let fake: FakeProviderServer | undefined;
  let registry: ProviderRegistry | undefined;
  afterEach(async () => {
    await registry?.close();
    await fake?.close();
  });

  it('serves speech through the registry, lists its models, voices and overridden price', async () => {
    fake = await startFakeProvider('openai');
    const environment = {
      OPENAI_COMPATIBLE_ACME_BASE_URL: fake.baseUrl,
      OPENAI_COMPATIBLE_ACME_API_KEY: fake.apiKey,
      OPENAI_COMPATIBLE_ACME_MODELS: 'tts-1=15,gpt-4o-mini-tts=20',
      OPENAI_COMPATIBLE_ACME_VOICES: 'alloy,coral',
    };
    const hosts = parseOpenAICompatibleHosts(environment, builtIn);
    registry = createProviderRegistry({
      attemptTimeoutMs: 1000,
      maxAttempts: 1,
      modules: [...providerModules, ...openAICompatibleHostModules(environment, builtIn)],
      providers: openAICompatibleHostSettings(hosts),
      pricing: parsePricingOverrides('{"acme/tts-1": {"microsPerUnit": 9.5}}', 'PRICING_JSON'),
    });
    expect(registry.isAvailable('acme')).toBe(true);
    const descriptor = registry.descriptor('acme')!;
    // The host's (possibly internal) base URL is not published.
    expect(JSON.stringify(descriptor)).not.toContain(fake.baseUrl);
    expect(descriptor.models.map((model) => [model.id, model.pricing.microsPerUnit])).toEqual([['tts-1', 9.5], ['gpt-4o-mini-tts', 20]]);
    expect(descriptor.voices.map((voice) => [voice.id, voice.language, voice.modelCompatibility])).toEqual([
      ['alloy', 'und', ['tts-1', 'gpt-4o-mini-tts']],
      ['coral', 'und', ['tts-1', 'gpt-4o-mini-tts']],
    ]);
    const result = await registry.synthesize('acme', openAIInput({ format: 'pcm', speed: 9 }), { signal: new AbortController().signal });
    const bytes = await collect(result.audio);
    expect(bytes.length % 2).toBe(0);
    expect(result.warnings).toEqual(['speed clamped to 4: acme accepts 0.25 to 4']);
    const recorded = fake.requests.at(-1)!;
    expect(recorded.path).toBe('/v1/audio/speech');
    expect(recorded.headers.authorization).toBe(`Bearer ${fake.apiKey}`);
    expect(recorded.body).toMatchObject({ model: 'tts-1', voice: 'alloy', response_format: 'pcm', speed: 4 });
  });

  it('refuses a price override for a model the host does not list', () => {
    const environment = { OPENAI_COMPATIBLE_ACME_BASE_URL: 'https://acme.example/v1', OPENAI_COMPATIBLE_ACME_MODELS: 'tts-1=15' };
    expect(() =>
      createProviderRegistry({
        attemptTimeoutMs: 1000,
        maxAttempts: 1,
        modules: [...providerModules, ...openAICompatibleHostModules(environment, builtIn)],
        pricing: parsePricingOverrides('{"acme/tts-2": {"microsPerUnit": 1}}', 'PRICING_JSON'),
      }),
    ).toThrow('pricing overrides name models no provider lists: acme/tts-2');
  });

  it('is available without a key, and then sends no Authorization header', () => {
    const [module] = openAICompatibleHostModules({ OPENAI_COMPATIBLE_KOKORO_BASE_URL: 'http://127.0.0.1:8880/v1', OPENAI_COMPATIBLE_KOKORO_MODELS: 'kokoro=0' }, builtIn);
    expect(module!.isConfigured({})).toBe(true);
    expect(module!.settings.apiKey!.env).toBe('OPENAI_COMPATIBLE_KOKORO_API_KEY');
    expect(module!.settings.apiKey!.secret).toBe(true);
    const request = buildOpenAICompatibleSpeechRequest(openAIInput({ modelId: 'kokoro', voice: 'af_bella' }), { apiKey: '', settings: {} }, openAISpeechSettings);
    expect(request.headers.authorization).toBeUndefined();
  });
});
