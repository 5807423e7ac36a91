// End to end through the adapter: Hume's 48 kHz pcm comes out as the router's 24 kHz pcm and 24 kHz mp3.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPools } from '../http/connection-pools.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { collect } from '../__fixtures__/speech-helpers.js';
import { probeAudio } from '../__fixtures__/http.js';
import { humeProvider } from './index.js';

let fake: FakeProviderServer;
const pools = new ConnectionPools();
const text = 'Converted from forty-eight kilohertz.';
const seconds = Math.max(0.5, text.length / 15);

beforeAll(async () => {
  fake = await startFakeProvider('hume');
});
afterAll(async () => {
  await fake.close();
  await pools.close();
});

const synthesize = async (format: 'mp3' | 'pcm') => {
  const adapter = humeProvider.create({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, { attemptTimeoutMs: 10_000, pools });
  const result = await adapter.synthesize({ modelId: 'octave-1', voice: 'Ava Song', text, format, providerOptions: {} }, { signal: new AbortController().signal });
  return collect(result.audio);
};

describe('hume output conversion', () => {
  it('resamples 48 kHz pcm to 24 kHz s16le mono (half the samples)', async () => {
    const bytes = await synthesize('pcm');
    expect(bytes.length % 2).toBe(0);
    // The resampler's filter may hold back or pad a few samples at the ends.
    expect(Math.abs(bytes.length / 2 / 24_000 - seconds)).toBeLessThan(0.02);
  });

  it('encodes mp3 at 24 kHz mono with the speech duration', async () => {
    const bytes = await synthesize('mp3');
    const probe = await probeAudio(bytes);
    if (probe) {
      expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
      expect(Math.abs(probe.durationSeconds - seconds)).toBeLessThan(0.15);
    }
  });
});
