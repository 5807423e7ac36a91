// The Azure double's auth, SSML validation, output formats, error bodies and voice list.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { buildAzureSsml } from './azure-ssml.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('azure');
});
afterAll(() => fake.close());

const ssml = (text = 'Hello from the fake.', voice = 'en-US-JennyNeural') => buildAzureSsml({ text, voice, language: 'en-US' });

async function speak(overrides: Record<string, string> = {}, body = ssml()) {
  const response = await fetch(`${fake.baseUrl}/cognitiveservices/v1`, {
    method: 'POST',
    headers: {
      'ocp-apim-subscription-key': fake.apiKey,
      'content-type': 'application/ssml+xml',
      'x-microsoft-outputformat': 'audio-24khz-96kbitrate-mono-mp3',
      'user-agent': 'test',
      ...overrides,
    },
    body,
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}

describe('azure double', () => {
  it('refuses a wrong key with the gateway error body', async () => {
    const result = await speak({ 'ocp-apim-subscription-key': 'wrong' });
    expect(result.status).toBe(401);
    const body = JSON.parse(result.text) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('401');
    expect(body.error.message).toContain(fake.leakMarker);
  });

  it('refuses a bearer token in place of the key', async () => {
    expect((await speak({ 'ocp-apim-subscription-key': '', authorization: `Bearer ${fake.apiKey}` })).status).toBe(401);
  });

  it('answers 415 to a body that is not SSML and 400 to an unknown output format', async () => {
    expect((await speak({ 'content-type': 'application/json' })).status).toBe(415);
    expect((await speak({ 'x-microsoft-outputformat': 'riff-24khz-16bit-mono-pcm' })).status).toBe(400);
  });

  it.each([
    ['ill-formed XML', '<speak version="1.0" xml:lang="en-US"><voice name="en-US-JennyNeural">a < b</voice></speak>'],
    ['an unknown entity', '<speak version="1.0" xml:lang="en-US"><voice name="en-US-JennyNeural">&nbsp;</voice></speak>'],
    ['no voice', '<speak version="1.0" xml:lang="en-US">Hello</speak>'],
    ['an unknown voice', ssml('Hello', 'en-US-NobodyNeural')],
    ['a bad prosody rate', '<speak version="1.0" xml:lang="en-US"><voice name="en-US-JennyNeural"><prosody rate="warp">x</prosody></voice></speak>'],
    ['plain text', 'Hello'],
  ])('answers 400 with an empty body to %s', async (_case, body) => {
    const result = await speak({}, body);
    expect(result.status).toBe(400);
    expect(result.text).toBe('');
  });

  it('streams 24 kHz mono MP3 for the standard format', async () => {
    const result = await speak();
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toBe('audio/mpeg');
    expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('streams 48 kHz MP3 when asked', async () => {
    const result = await speak({ 'x-microsoft-outputformat': 'audio-48khz-192kbitrate-mono-mp3' });
    const probe = await probeAudio(result.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 48000, channels: 1 });
    else expect(startsWithMp3FrameSync(result.bytes)).toBe(true);
  });

  it('streams headerless pcm sized like speech of the SSML text', async () => {
    const text = 'Some words to speak, counted without the markup.';
    const result = await speak({ 'x-microsoft-outputformat': 'raw-24khz-16bit-mono-pcm' }, ssml(text));
    expect(result.status).toBe(200);
    expect(result.bytes.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
    expect(Math.abs(result.bytes.length / 48_000 - Math.max(0.5, text.length / 15))).toBeLessThan(0.001);
  });

  it('serves GET /cognitiveservices/voices/list as a bare array behind the key', async () => {
    const url = `${fake.baseUrl}/cognitiveservices/voices/list`;
    expect((await fetch(url)).status).toBe(401);
    const response = await fetch(url, { headers: { 'ocp-apim-subscription-key': fake.apiKey } });
    const voices = (await response.json()) as Array<Record<string, unknown>>;
    expect(Array.isArray(voices)).toBe(true);
    expect(voices[0]).toMatchObject({ ShortName: 'en-US-AvaMultilingualNeural', Locale: 'en-US', Gender: 'Female', SampleRateHertz: '24000' });
  });
});
