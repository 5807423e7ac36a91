// End to end through the adapter: Resemble's 44.1 kHz streaming WAV comes out as the router's 24 kHz pcm and mp3,
// with speech going to the synthesis URL and never to the management base URL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPools } from '../http/connection-pools.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { collect } from '../__fixtures__/speech-helpers.js';
import { probeAudio } from '../__fixtures__/http.js';
import { resembleProvider } from './index.js';

let fake: FakeProviderServer;
const pools = new ConnectionPools();
const text = 'Converted from forty-four point one kilohertz.';
const seconds = Math.max(0.5, text.length / 15);

beforeAll(async () => {
  fake = await startFakeProvider('resemble');
});
afterAll(async () => {
  await fake.close();
  await pools.close();
});

const synthesize = async (format: 'mp3' | 'pcm') => {
  const settings = { apiKey: fake.apiKey, synthesisUrl: fake.baseUrl, baseUrl: 'http://127.0.0.1:9/api' };
  const adapter = resembleProvider.create(settings, { attemptTimeoutMs: 10_000, pools });
  const result = await adapter.synthesize({ modelId: 'chatterbox', voice: '55592656', text, format, providerOptions: {} }, { signal: new AbortController().signal });
  return collect(result.audio);
};

describe('resemble output conversion', () => {
  it('strips the WAV header and resamples 44.1 kHz to 24 kHz s16le mono', async () => {
    const bytes = await synthesize('pcm');
    expect(bytes.length % 2).toBe(0);
    expect(Math.abs(bytes.length / 2 / 24_000 - seconds)).toBeLessThan(0.02);
    expect(fake.requests.at(-1)!.path).toBe('/resemble/stream');
  });

  it('encodes mp3 at 24 kHz mono with the speech duration', async () => {
    const probe = await probeAudio(await synthesize('mp3'));
    if (probe) {
      expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
      expect(Math.abs(probe.durationSeconds - seconds)).toBeLessThan(0.15);
    }
  });

  it('is configured by the key alone; the two hosts default to the SDK ones', () => {
    expect(resembleProvider.isConfigured({ apiKey: 'k' })).toBe(true);
    expect(resembleProvider.isConfigured({})).toBe(false);
    expect(Object.values(resembleProvider.settings).map((setting) => setting.env)).toEqual(['RESEMBLE_API_KEY', 'RESEMBLE_BASE_URL', 'RESEMBLE_SYNTHESIS_URL']);
  });
});
