// Deepgram's live voice list from GET /v1/models on the double, and the normalization of odd entries.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { DEEPGRAM_FAKE_MODELS } from './deepgram-double.js';
import { buildDeepgramSpeechRequest } from './deepgram-speech-model.js';
import { listDeepgramVoices, normalizeDeepgramVoice } from './deepgram-voices.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('deepgram');
});
afterAll(() => fake.close());

const context = () => ({ signal: AbortSignal.timeout(5000) });

describe('listDeepgramVoices', () => {
  it('lists every TTS model as a voice of its generation, merging names shared by aura and aura-2', async () => {
    const voices = await listDeepgramVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    const pairs = voices.flatMap((voice) => voice.modelCompatibility.map((model) => `${model}-${voice.id}`));
    expect(new Set(pairs)).toEqual(DEEPGRAM_FAKE_MODELS);
    expect(voices.find((voice) => voice.id === 'asteria-en')?.modelCompatibility).toEqual(['aura-2', 'aura']);
    const thalia = voices.find((voice) => voice.id === 'thalia-en')!;
    expect(thalia).toMatchObject({ name: 'Thalia', language: 'en-US', labels: { gender: 'female', family: 'aura' } });
    expect(thalia.previewUrl).toMatch(/^https:\/\//);
    expect(voices.find((voice) => voice.id === 'agustina-es')?.language).toBe('es-ES');
    // A listed voice composes back into the upstream model it came from.
    const path = buildDeepgramSpeechRequest(
      { modelId: 'aura-2', voice: 'agustina-es', text: 'Hola', format: 'mp3', providerOptions: {} },
      { apiKey: 'k', settings: {} },
    ).path;
    expect(new URL(path, 'http://x').searchParams.get('model')).toBe('aura-2-agustina-es');
  });

  it('fails as auth_failed with a wrong key, never with upstream text', async () => {
    await expect(listDeepgramVoices({ apiKey: 'wrong', baseUrl: fake.baseUrl }, context())).rejects.toMatchObject({ failure: 'auth_failed', statusCode: 401 });
  });

  it('skips entries that are not <architecture>-<name>-<lang>', () => {
    expect(normalizeDeepgramVoice({ canonical_name: 'nova-3', architecture: 'nova' })).toBeUndefined();
    expect(normalizeDeepgramVoice({ canonical_name: 'aura-2-thalia-en' })).toBeUndefined();
    expect(normalizeDeepgramVoice({ canonical_name: 'aura-2-a/b-en', architecture: 'aura-2' })).toBeUndefined();
    expect(normalizeDeepgramVoice(null)).toBeUndefined();
    expect(normalizeDeepgramVoice({ canonical_name: 'aura-3-zeus-en', architecture: 'aura-3', metadata: { sample: 'javascript:alert(1)' } })).toEqual({
      id: 'zeus-en', name: 'Zeus-en', language: 'en', labels: { family: 'aura' }, modelCompatibility: ['aura-3'],
    });
  });
});
