// The output-format guarantee end to end through the HTTP adapter: a Cartesia double answering in formats
// other than the requested one (WAV or raw PCM at 8–48 kHz) still yields exact pcm (s16le, 24 kHz, mono)
// and 24 kHz mono MP3, decoded by ffprobe where installed; and the first byte leaves before upstream ends.

import type { OutputDescription } from '@voice-router/audio';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { announceSkip, parseMp3Frames, probeAudio } from '@voice-router/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collect } from '../__fixtures__/speech-helpers.js';
import { buildCartesiaSpeechRequest, cartesiaDescriptor, classifyCartesiaError } from '../cartesia/index.js';
import { ProviderError } from '../errors.js';
import { createHttpSpeechAdapter, type HttpProviderDefinition } from '../http/http-speech-adapter.js';
import { createLocalSpeechAdapter } from '../local/local-speech-adapter.js';
import type { SpeechAdapter, SpeechInput } from '../types.js';

const TEXT = 'Hello from the router tests.';
/** The double sizes bodies like real speech: 15 characters per second of audio. */
const EXPECTED_SECONDS = TEXT.length / 15;

let fake: FakeProviderServer;
const adapters: SpeechAdapter[] = [];

beforeAll(async () => {
  fake = await startFakeProvider('cartesia', { chunkBytes: 4096 });
});
afterAll(async () => {
  await Promise.all(adapters.map((adapter) => adapter.close()));
  await fake?.close();
});

/** Cartesia's real mapping, but asking for `outputFormat` and declaring what that returns. */
function cartesiaAnswering(outputFormat: Record<string, unknown>, output: OutputDescription): SpeechAdapter {
  const definition: HttpProviderDefinition = {
    id: 'cartesia',
    defaultBaseUrl: 'https://api.cartesia.ai',
    descriptor: cartesiaDescriptor,
    classifyError: classifyCartesiaError,
    buildRequest(input, credentials) {
      const request = buildCartesiaSpeechRequest(input, credentials);
      const body = JSON.parse(request.body) as Record<string, unknown>;
      return { ...request, body: JSON.stringify({ ...body, output_format: outputFormat }), output };
    },
  };
  const adapter = createHttpSpeechAdapter(definition, { apiKey: fake.apiKey, baseUrl: fake.baseUrl, firstByteTimeoutMs: 10_000 });
  adapters.push(adapter);
  return adapter;
}

function input(format: 'mp3' | 'pcm'): SpeechInput {
  return { modelId: 'sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', text: TEXT, format, providerOptions: {} };
}

let ffprobeNoted = false;
async function probe(bytes: Uint8Array, format: 'mp3' | 'pcm') {
  const probed = await probeAudio(bytes, format);
  if (!probed && !ffprobeNoted) {
    ffprobeNoted = true;
    announceSkip('providers: ffprobe decoding of converted output', 'ffprobe is not installed (apt-get install ffmpeg)');
  }
  return probed;
}

const variants: Array<[string, Record<string, unknown>, OutputDescription, number]> = [
  ['streaming WAV at 48 kHz', { container: 'wav', encoding: 'pcm_s16le', sample_rate: 48_000 }, { container: 'wav' }, 48_000],
  ['streaming WAV at 44.1 kHz', { container: 'wav', encoding: 'pcm_s16le', sample_rate: 44_100 }, { container: 'wav' }, 44_100],
  ['raw PCM at 22.05 kHz', { container: 'raw', encoding: 'pcm_s16le', sample_rate: 22_050 }, { container: 'raw', encoding: 's16le', sampleRate: 22_050 }, 22_050],
  ['raw PCM at 16 kHz', { container: 'raw', encoding: 'pcm_s16le', sample_rate: 16_000 }, { container: 'raw', encoding: 's16le', sampleRate: 16_000 }, 16_000],
  ['raw PCM at 8 kHz', { container: 'raw', encoding: 'pcm_s16le', sample_rate: 8000 }, { container: 'raw', encoding: 's16le', sampleRate: 8000 }, 8000],
];

describe('output conversion through the HTTP adapter (Cartesia double)', () => {
  it.each(variants)('%s → pcm is exactly s16le 24 kHz mono of the upstream duration', async (_name, outputFormat, output, rate) => {
    const result = await cartesiaAnswering(outputFormat, output).synthesize(input('pcm'), { signal: new AbortController().signal });
    const pcm = await collect(result.audio);
    // The double's body: the speech-like byte count, cut to whole samples.
    const upstreamBytes = Math.round(EXPECTED_SECONDS * rate * 2);
    const upstreamSamples = (upstreamBytes - (upstreamBytes % 2)) / 2;
    expect(pcm.length % 2).toBe(0);
    expect(Math.abs(pcm.length / 2 - (upstreamSamples * 24_000) / rate)).toBeLessThanOrEqual(1);
    // No WAV header leaked into the audio.
    expect(pcm.subarray(0, 4).toString('latin1')).not.toBe('RIFF');
    const probed = await probe(pcm, 'pcm');
    if (probed) {
      expect(probed).toMatchObject({ codec: 'pcm_s16le', sampleRate: 24_000, channels: 1 });
      expect(probed.durationSeconds).toBeCloseTo(EXPECTED_SECONDS, 2);
    }
  });

  it.each(variants)('%s → mp3 decodes as 24 kHz mono MP3 of plausible duration', async (_name, outputFormat, output) => {
    const result = await cartesiaAnswering(outputFormat, output).synthesize(input('mp3'), { signal: new AbortController().signal });
    const mp3 = await collect(result.audio);
    const frames = parseMp3Frames(mp3);
    expect(frames).toMatchObject({ sampleRate: 24_000, channels: 1, trailingBytes: 0 });
    expect(frames.durationSeconds).toBeGreaterThanOrEqual(EXPECTED_SECONDS - 0.01);
    expect(frames.durationSeconds).toBeLessThan(EXPECTED_SECONDS + 0.15);
    const probed = await probe(mp3, 'mp3');
    if (probed) {
      expect(probed).toMatchObject({ codec: 'mp3', sampleRate: 24_000, channels: 1 });
      expect(probed.durationSeconds).toBeGreaterThan(EXPECTED_SECONDS - 0.05);
      expect(probed.durationSeconds).toBeLessThan(EXPECTED_SECONDS + 0.2);
    }
  });

  it.each(['pcm', 'mp3'] as const)('sends the first %s byte before the upstream body has ended', async (format) => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    // 0.25 s of 48 kHz audio (plus the 44-byte header), then the double holds the rest.
    fake.setBehavior({ pauseAfterBytes: 24_000, until });
    const adapter = cartesiaAnswering({ container: 'wav', encoding: 'pcm_s16le', sample_rate: 48_000 }, { container: 'wav' });
    try {
      const result = await adapter.synthesize(input(format), { signal: new AbortController().signal });
      const iterator = result.audio[Symbol.asyncIterator]();
      const first = await iterator.next();
      expect(first.done).toBe(false);
      expect(first.value!.byteLength).toBeGreaterThan(0);
      const record = fake.requests.at(-1)!;
      // The upstream is still mid-body: held at the pause, not finished.
      expect(record.outcome).toBe('pending');
      expect(record.audioBytesSent).toBe(24_000);
      release();
      let rest = first.value!.byteLength;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest += next.value.byteLength;
      expect(rest).toBeGreaterThan(first.value!.byteLength);
      expect(await fake.waitForOutcome(record)).toBe('completed');
    } finally {
      release();
      fake.setBehavior('normal');
    }
  });

  it('leaving the converted stream early cancels the upstream request', async () => {
    let release!: () => void;
    const until = new Promise<void>((resolve) => (release = resolve));
    fake.setBehavior({ pauseAfterBytes: 24_000, until });
    try {
      const adapter = cartesiaAnswering({ container: 'wav', encoding: 'pcm_s16le', sample_rate: 48_000 }, { container: 'wav' });
      const result = await adapter.synthesize(input('mp3'), { signal: new AbortController().signal });
      for await (const _bytes of result.audio) break;
      const record = fake.requests.at(-1)!;
      expect(await fake.waitForOutcome(record)).toBe('aborted');
    } finally {
      release();
      fake.setBehavior('normal');
    }
  });

  it('a body that is not the declared container is a non-retryable bad upstream answer', async () => {
    // Declared WAV, but Cartesia sends raw PCM: the RIFF check refuses it without quoting any bytes.
    const adapter = cartesiaAnswering({ container: 'raw', encoding: 'pcm_s16le', sample_rate: 48_000 }, { container: 'wav' });
    const error = await adapter.synthesize(input('pcm'), { signal: new AbortController().signal }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ category: 'upstream_bad_response', isRetryable: false });
  });
});

describe('local provider output (eSpeak NG, resampled 22,050 → 24,000 Hz)', () => {
  it.each(['pcm', 'mp3'] as const)('%s decodes as 24 kHz mono of plausible duration', async (format) => {
    const local = createLocalSpeechAdapter({ firstByteTimeoutMs: 30_000 });
    adapters.push(local);
    const voice = local.descriptor.voices[0]!.id;
    const modelId = local.descriptor.models[0]!.id;
    const result = await local.synthesize({ modelId, voice, text: TEXT, format, providerOptions: {} }, { signal: new AbortController().signal });
    const bytes = await collect(result.audio);
    // eSpeak speaks this sentence in about 1.5-3 s.
    const seconds = format === 'pcm' ? bytes.length / 48_000 : parseMp3Frames(bytes).durationSeconds;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(4);
    const probed = await probe(bytes, format);
    if (probed) {
      expect(probed).toMatchObject({ codec: format === 'pcm' ? 'pcm_s16le' : 'mp3', sampleRate: 24_000, channels: 1 });
      expect(Math.abs(probed.durationSeconds - seconds)).toBeLessThan(0.1);
    }
  });
});
