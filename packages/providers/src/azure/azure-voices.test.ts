// The live voice list against the double, and normalization of odd entries.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoiceListingError } from '../catalog/voice-listing.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { azureProvider } from './index.js';
import { listAzureVoices, normalizeAzureVoice } from './azure-voices.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('azure');
});
afterAll(() => fake.close());

const context = () => ({ signal: AbortSignal.timeout(5000) });

describe('listAzureVoices', () => {
  it('lists every voice of the double, normalized', async () => {
    const voices = await listAzureVoices({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, context());
    expect(voices).toHaveLength(8);
    expect(voices.find((voice) => voice.id === 'en-US-JennyNeural')).toEqual({
      id: 'en-US-JennyNeural',
      name: 'Jenny',
      language: 'en-US',
      labels: { gender: 'female', type: 'Neural', status: 'GA', local_name: 'Jenny', locale_name: 'en-US', styles: 'assistant,chat,customerservice' },
      modelCompatibility: ['neural'],
    });
  });

  it('fails with auth_failed for a wrong key', async () => {
    const error = await listAzureVoices({ apiKey: 'wrong', baseUrl: fake.baseUrl }, context()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(VoiceListingError);
    expect(error).toMatchObject({ failure: 'auth_failed', statusCode: 401 });
  });

  it('is the module listing', () => {
    expect(azureProvider.listVoices).toBe(listAzureVoices);
  });
});

describe('normalizeAzureVoice', () => {
  it('skips entries without a ShortName and tolerates missing fields', () => {
    expect(normalizeAzureVoice({ DisplayName: 'x' })).toBeUndefined();
    expect(normalizeAzureVoice('nope')).toBeUndefined();
    expect(normalizeAzureVoice({ ShortName: 'xx-Custom', Locale: 42 })).toEqual({
      id: 'xx-Custom', name: 'xx-Custom', language: 'und', labels: {}, modelCompatibility: ['neural'],
    });
  });
});

describe('azure settings', () => {
  it('needs a key and a region or base URL', () => {
    expect(azureProvider.isConfigured({ apiKey: 'k' })).toBe(false);
    expect(azureProvider.isConfigured({ apiKey: 'k', region: 'eastus' })).toBe(true);
    expect(azureProvider.isConfigured({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' })).toBe(true);
    expect(azureProvider.isConfigured({ region: 'eastus' })).toBe(false);
  });

  it('names the Speech ecosystem variables and refuses a region that could change the host', () => {
    const settings = azureProvider.settings;
    expect(Object.values(settings).map((setting) => setting.env)).toEqual(['AZURE_SPEECH_KEY', 'AZURE_SPEECH_REGION', 'AZURE_BASE_URL']);
    expect(settings.region!.schema.safeParse('eastus').success).toBe(true);
    for (const bad of ['evil.com/', 'east us', 'a@b', 'EastUS.x']) expect(settings.region!.schema.safeParse(bad).success).toBe(false);
  });
});
