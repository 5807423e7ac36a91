// Fidelity with the official client library (@google-cloud/text-to-speech, pinned). Its default transport is
// gRPC, which cannot reach an HTTP double; in REST fallback mode (`fallback: true`, with `protocol: 'http'`)
// it sends the same v1 REST calls the router does (asking for numeric enums and compact JSON), so the
// double's answers, errors and voice list are checked through it.

import { TextToSpeechClient } from '@google-cloud/text-to-speech';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { GOOGLE_FAKE_VOICES } from './google-double.js';
import { buildGoogleSpeechRequest } from './google-speech-model.js';

let fake: FakeProviderServer;
let client: TextToSpeechClient;

function restClient(apiKey: string): TextToSpeechClient {
  const { hostname, port } = new URL(fake.origin);
  return new TextToSpeechClient({ fallback: true, protocol: 'http', apiEndpoint: hostname, port: Number(port), apiKey });
}

beforeAll(async () => {
  fake = await startFakeProvider('google');
  client = restClient(fake.apiKey);
});
afterAll(async () => {
  await client.close();
  await fake.close();
});

describe('@google-cloud/text-to-speech (REST fallback) against the double', () => {
  it('synthesizeSpeech decodes the double JSON into MP3 bytes', async () => {
    const [response] = await client.synthesizeSpeech({
      input: { text: 'Hello from the SDK.' },
      voice: { languageCode: 'en-US', name: 'en-US-Neural2-F' },
      audioConfig: { audioEncoding: 'MP3', sampleRateHertz: 24000 },
    });
    const bytes = Buffer.from(response.audioContent as Uint8Array);
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('sends the path, key header and body fields the router sends (enums as numbers, compact JSON asked)', async () => {
    await client.synthesizeSpeech({
      input: { text: 'Same request.' },
      voice: { languageCode: 'en-US', name: 'en-US-Wavenet-D' },
      audioConfig: { audioEncoding: 'LINEAR16', sampleRateHertz: 24000 },
    });
    const recorded = fake.requests.at(-1)!;
    const ours = buildGoogleSpeechRequest(
      { modelId: 'wavenet', voice: 'en-US-Wavenet-D', text: 'Same request.', format: 'pcm', providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.path.split('?')[0]).toBe(ours.path);
    expect(new URLSearchParams(recorded.path.split('?')[1]).get('$alt')).toBe('json;enum-encoding=int');
    expect(recorded.headers['x-goog-api-key']).toBe(ours.headers['x-goog-api-key']);
    const sdkBody = recorded.body as { input: unknown; voice: unknown; audioConfig: Record<string, unknown> };
    const routerBody = JSON.parse(ours.body) as typeof sdkBody;
    expect(sdkBody.input).toEqual(routerBody.input);
    expect(sdkBody.voice).toEqual(routerBody.voice);
    expect(sdkBody.audioConfig).toEqual({ ...routerBody.audioConfig, audioEncoding: 1 });
  });

  it('LINEAR16 comes back as a WAV (RIFF) clip', async () => {
    const [response] = await client.synthesizeSpeech({
      input: { text: 'A WAV clip.' },
      voice: { languageCode: 'en-US', name: 'en-US-Standard-C' },
      audioConfig: { audioEncoding: 'LINEAR16', sampleRateHertz: 24000 },
    });
    const bytes = Buffer.from(response.audioContent as Uint8Array);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(24000);
  });

  it('listVoices reads the double voice list, numeric genders included', async () => {
    const [response] = await client.listVoices({ languageCode: 'en-US' });
    const names = (response.voices ?? []).map((voice) => voice.name);
    expect(names).toEqual(GOOGLE_FAKE_VOICES.filter((voice) => voice.languageCodes[0] === 'en-US').map((voice) => voice.name));
    expect(response.voices![0]!.ssmlGender).toBe('FEMALE');
    expect(response.voices![0]!.naturalSampleRateHertz).toBe(24000);
  });

  it('surfaces the double errors as google.rpc.Status bodies (with an API key the auth client raises them as GaxiosErrors)', async () => {
    type SdkError = { status?: number; message: string };
    const statusOf = (error: SdkError) => JSON.parse(error.message) as { error: { code: number; status: string; details?: Array<{ reason?: string }> } };
    const missing = (await client
      .synthesizeSpeech({ input: { text: 'Hi' }, voice: { languageCode: 'en-US', name: 'en-US-Nobody-A' }, audioConfig: { audioEncoding: 'MP3' } })
      .then(() => undefined, (error: unknown) => error)) as SdkError;
    expect(missing.status).toBe(400);
    expect(statusOf(missing).error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const wrongKey = restClient('wrong-key');
    try {
      const refused = (await wrongKey
        .synthesizeSpeech({ input: { text: 'Hi' }, voice: { languageCode: 'en-US' }, audioConfig: { audioEncoding: 'MP3' } })
        .then(() => undefined, (error: unknown) => error)) as SdkError;
      expect(refused.status).toBe(400);
      expect(statusOf(refused).error.details?.[0]?.reason).toBe('API_KEY_INVALID');
    } finally {
      await wrongKey.close();
    }
  });
});
