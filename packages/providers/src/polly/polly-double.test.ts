// The Polly double's SigV4 verification, validation, error shapes and audio, driven by the router's own signer.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { POLLY_FAKE_REGION, POLLY_FAKE_SECRET_ACCESS_KEY, POLLY_FAKE_VOICES } from './polly-double.js';
import { signPollyRequest } from './polly-signing.js';
import { listPollyVoices } from './polly-voices.js';

let fake: FakeProviderServer;
const body = { Engine: 'neural', OutputFormat: 'mp3', SampleRate: '24000', Text: 'Hello from the fake.', TextType: 'text', VoiceId: 'Joanna' };

beforeAll(async () => {
  fake = await startFakeProvider('polly');
});
afterAll(() => fake.close());

interface Options {
  secret?: string;
  accessKeyId?: string;
  date?: Date;
  tamper?: (payload: string) => string;
}

async function speak(payload: unknown = body, options: Options = {}) {
  const url = new URL('/v1/speech', fake.baseUrl);
  const text = JSON.stringify(payload);
  const headers = await signPollyRequest(
    { method: 'POST', url, headers: { 'content-type': 'application/json' }, body: text },
    { accessKeyId: options.accessKeyId ?? fake.apiKey, secretAccessKey: options.secret ?? POLLY_FAKE_SECRET_ACCESS_KEY, region: POLLY_FAKE_REGION },
    options.date,
  );
  const response = await fetch(url, { method: 'POST', headers, body: options.tamper ? options.tamper(text) : text });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}
const errorType = (result: { headers: Headers }) => result.headers.get('x-amzn-errortype')?.split(':')[0];

describe('polly double', () => {
  it('verifies the signature for real: wrong secret, tampered body, unknown key, stale date, no signature', async () => {
    const wrongSecret = await speak(body, { secret: 'nope' });
    expect([wrongSecret.status, errorType(wrongSecret)]).toEqual([403, 'InvalidSignatureException']);
    expect(JSON.parse(wrongSecret.text).message).toContain(fake.leakMarker);
    const tampered = await speak(body, { tamper: (text) => text.replace('Joanna', 'Matthew') });
    expect([tampered.status, errorType(tampered)]).toEqual([403, 'InvalidSignatureException']);
    const unknownKey = await speak(body, { accessKeyId: 'AKIDUNKNOWN' });
    expect([unknownKey.status, errorType(unknownKey)]).toEqual([403, 'UnrecognizedClientException']);
    const stale = await speak(body, { date: new Date(Date.now() - 20 * 60 * 1000) });
    expect([stale.status, errorType(stale)]).toEqual([403, 'InvalidSignatureException']);
    const unsigned = await fetch(new URL('/v1/speech', fake.baseUrl), { method: 'POST', body: JSON.stringify(body) });
    expect([unsigned.status, unsigned.headers.get('x-amzn-errortype')?.split(':')[0]]).toEqual([403, 'MissingAuthenticationTokenException']);
  });

  it('validates like the service model', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...body, VoiceId: 'Nobody' }, 'ValidationException'],
      [{ ...body, Engine: 'turbo' }, 'ValidationException'],
      [{ ...body, VoiceId: 'Brian', Engine: 'generative' }, 'EngineNotSupportedException'],
      [{ ...body, OutputFormat: 'pcm', SampleRate: '24000' }, 'InvalidSampleRateException'],
      [{ ...body, Text: 'x'.repeat(3001) }, 'TextLengthExceededException'],
      [{ ...body, LanguageCode: 'fr-FR' }, 'LanguageNotSupportedException'],
      [{ ...body, LexiconNames: ['names'] }, 'LexiconNotFoundException'],
    ];
    for (const [payload, type] of cases) {
      const result = await speak(payload);
      expect([result.status, errorType(result)]).toEqual([400, type]);
    }
  });

  it('streams 24 kHz mono MP3 and 16 kHz pcm with the billed characters', async () => {
    const mp3 = await speak();
    expect(mp3.status).toBe(200);
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect(mp3.headers.get('x-amzn-requestcharacters')).toBe('20');
    expect(startsWithMp3FrameSync(mp3.bytes)).toBe(true);
    const probe = await probeAudio(mp3.bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    const pcm = await speak({ ...body, OutputFormat: 'pcm', SampleRate: '16000' });
    expect(pcm.headers.get('content-type')).toBe('audio/pcm');
    const seconds = Math.max(0.5, body.Text.length / 15);
    expect(Math.abs(pcm.bytes.length / 2 / 16000 - seconds)).toBeLessThan(0.001);
  });

  it('listPollyVoices signs DescribeVoices and pages to the end, normalizing engines and languages', async () => {
    const voices = await listPollyVoices(
      { accessKeyId: fake.apiKey, secretAccessKey: POLLY_FAKE_SECRET_ACCESS_KEY, region: POLLY_FAKE_REGION, endpoint: fake.baseUrl },
      { signal: AbortSignal.timeout(5000) },
    );
    expect(voices.map((voice) => voice.id)).toEqual(POLLY_FAKE_VOICES.map((voice) => voice.Id));
    expect(voices.find((voice) => voice.id === 'Ruth')).toMatchObject({ language: 'en-US', labels: { gender: 'female' }, modelCompatibility: ['neural', 'long-form', 'generative'] });
    expect(voices.find((voice) => voice.id === 'Aditi')?.labels.additional_languages).toBe('en-IN');
    const pages = fake.requests.filter((request) => request.path.startsWith('/v1/voices'));
    expect(pages.length).toBeGreaterThan(1);
    await expect(
      listPollyVoices(
        { accessKeyId: fake.apiKey, secretAccessKey: 'wrong', region: POLLY_FAKE_REGION, endpoint: fake.baseUrl },
        { signal: AbortSignal.timeout(5000) },
      ),
    ).rejects.toMatchObject({ failure: 'auth_failed', statusCode: 403 });
  });
});
