// Fidelity: the official @aws-sdk/client-polly (pinned), configured as users configure it by default (its
// NodeHttp2Handler: HTTP/2, here cleartext), pointed at the double with static credentials. The double checks the
// SDK's SigV4 signature for real; the SDK must accept the double's audio, voice pages and error shapes.

import {
  DescribeVoicesCommand,
  EngineNotSupportedException,
  PollyClient,
  PollyServiceException,
  SynthesizeSpeechCommand,
  TextLengthExceededException,
  type Voice,
} from '@aws-sdk/client-polly';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { POLLY_FAKE_REGION, POLLY_FAKE_SECRET_ACCESS_KEY, POLLY_FAKE_VOICES } from './polly-double.js';
import { buildPollySpeechRequest } from './polly-speech-model.js';

let fake: FakeProviderServer;
let client: PollyClient;
const clientWith = (secretAccessKey: string) =>
  new PollyClient({ region: POLLY_FAKE_REGION, endpoint: fake.baseUrl, credentials: { accessKeyId: fake.apiKey, secretAccessKey }, maxAttempts: 1 });

beforeAll(async () => {
  fake = await startFakeProvider('polly', { http2: true });
  client = clientWith(POLLY_FAKE_SECRET_ACCESS_KEY);
});
afterAll(async () => {
  client.destroy();
  await fake.close();
});

describe('@aws-sdk/client-polly against the double', () => {
  it('speaks HTTP/2 and signs what the double verifies; SynthesizeSpeech returns its MP3 stream', async () => {
    const output = await client.send(
      new SynthesizeSpeechCommand({ Engine: 'neural', OutputFormat: 'mp3', SampleRate: '24000', Text: 'Hello from the SDK.', TextType: 'text', VoiceId: 'Joanna' }),
    );
    expect(output.ContentType).toBe('audio/mpeg');
    expect(output.RequestCharacters).toBe(19);
    const bytes = await output.AudioStream!.transformToByteArray();
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
    const recorded = fake.requests.at(-1)!;
    // Over HTTP/2 the SDK signs the :authority pseudo-header instead of host; the double verifies either.
    expect(String(recorded.headers.authorization)).toMatch(/SignedHeaders=:authority;/);
    expect(String(recorded.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=[^/]+\/\d{8}\/us-east-1\/polly\/aws4_request/);
  });

  it('sends the same path and body as the router', async () => {
    const output = await client.send(
      new SynthesizeSpeechCommand({ Engine: 'neural', OutputFormat: 'pcm', SampleRate: '16000', Text: 'Same request.', TextType: 'text', VoiceId: 'Matthew' }),
    );
    expect(output.ContentType).toBe('audio/pcm');
    expect((await output.AudioStream!.transformToByteArray()).length % 2).toBe(0);
    const recorded = fake.requests.at(-1)!;
    const ours = buildPollySpeechRequest(
      { modelId: 'neural', voice: 'Matthew', text: 'Same request.', format: 'pcm', providerOptions: {} },
      { apiKey: fake.apiKey, settings: {} },
    );
    expect(recorded.method).toBe(ours.method);
    expect(recorded.path).toBe(ours.path);
    expect(recorded.body).toEqual(JSON.parse(ours.body));
  });

  it('turns the double error answers into the SDK modeled exceptions', async () => {
    const engine = await client
      .send(new SynthesizeSpeechCommand({ Engine: 'generative', OutputFormat: 'mp3', Text: 'Hi', VoiceId: 'Brian' }))
      .catch((error: unknown) => error);
    expect(engine).toBeInstanceOf(EngineNotSupportedException);
    expect((engine as EngineNotSupportedException).$metadata.httpStatusCode).toBe(400);
    const long = await client
      .send(new SynthesizeSpeechCommand({ Engine: 'standard', OutputFormat: 'mp3', Text: 'x'.repeat(3001), VoiceId: 'Joanna' }))
      .catch((error: unknown) => error);
    expect(long).toBeInstanceOf(TextLengthExceededException);
  });

  it('a wrong secret fails the signature check (403 InvalidSignatureException)', async () => {
    const wrong = clientWith('not-the-secret');
    try {
      const error = await wrong.send(new DescribeVoicesCommand({})).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(PollyServiceException);
      expect((error as PollyServiceException).name).toBe('InvalidSignatureException');
      expect((error as PollyServiceException).$metadata.httpStatusCode).toBe(403);
    } finally {
      wrong.destroy();
    }
  });

  it('pages DescribeVoices with NextToken to the end', async () => {
    const voices: Voice[] = [];
    let pages = 0;
    let token: string | undefined;
    do {
      const page = await client.send(new DescribeVoicesCommand({ IncludeAdditionalLanguageCodes: true, NextToken: token }));
      pages += 1;
      voices.push(...(page.Voices ?? []));
      token = page.NextToken;
    } while (token && pages < 50);
    expect(pages).toBeGreaterThan(1);
    expect(voices.map((voice) => voice.Id)).toEqual(POLLY_FAKE_VOICES.map((voice) => voice.Id));
    const neural = await client.send(new DescribeVoicesCommand({ Engine: 'long-form' }));
    expect(neural.Voices!.every((voice) => voice.SupportedEngines!.includes('long-form'))).toBe(true);
  });
});
