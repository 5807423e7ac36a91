// Fidelity with the official Speech SDK (microsoft-cognitiveservices-speech-sdk, pinned). The SDK synthesizes
// over a WebSocket (/tts/cognitiveservices/websocket/v1), not over the REST endpoint the router uses, so it
// cannot check the synthesis double; its one REST path, the voice list, is checked here against the double.

import * as sdk from 'microsoft-cognitiveservices-speech-sdk';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { AZURE_FAKE_VOICES } from './azure-double.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('azure');
});
afterAll(() => fake.close());

function synthesizer(key: string): sdk.SpeechSynthesizer {
  const config = sdk.SpeechConfig.fromHost(new URL(fake.origin), key);
  return new sdk.SpeechSynthesizer(config, null as unknown as sdk.AudioConfig);
}

describe('microsoft-cognitiveservices-speech-sdk against the double', () => {
  it('getVoicesAsync reads the double voice list into VoiceInfo objects', async () => {
    const client = synthesizer(fake.apiKey);
    try {
      const result = await client.getVoicesAsync();
      expect(result.reason).toBe(sdk.ResultReason.VoicesListRetrieved);
      expect(result.voices.map((voice) => voice.shortName)).toEqual(AZURE_FAKE_VOICES.map((voice) => voice.ShortName));
      const jenny = result.voices.find((voice) => voice.shortName === 'en-US-JennyNeural')!;
      expect(jenny.locale).toBe('en-US');
      expect(jenny.gender).toBe(sdk.SynthesisVoiceGender.Female);
      expect(jenny.voiceType).toBe(sdk.SynthesisVoiceType.OnlineNeural);
      expect(jenny.styleList).toEqual(['assistant', 'chat', 'customerservice']);
    } finally {
      client.close();
    }
    const recorded = fake.requests.at(-1)!;
    expect(recorded.method).toBe('GET');
    expect(recorded.path.split('?')[0]).toBe('/cognitiveservices/voices/list');
    expect(recorded.headers['ocp-apim-subscription-key']).toBe(fake.apiKey);
  });

  it('reports the double 401 as a failed listing', async () => {
    const client = synthesizer('wrong-key');
    try {
      const result = await client.getVoicesAsync();
      expect(result.reason).toBe(sdk.ResultReason.Canceled);
    } finally {
      client.close();
    }
  });

  it('synthesizes over a WebSocket path, which is why synthesis is not checked through the SDK', () => {
    const require = createRequire(import.meta.url);
    const root = dirname(require.resolve('microsoft-cognitiveservices-speech-sdk/package.json'));
    const factory = readFileSync(join(root, 'distrib/lib/src/common.speech/SpeechSynthesisConnectionFactory.js'), 'utf8');
    expect(factory).toContain('/tts/cognitiveservices/websocket/v1');
  });
});
