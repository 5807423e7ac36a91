import { announceSkip, isCollected, parseMp3Frames, probeAudio } from '@voice-router/test-support';
import { describe, expect, it, vi } from 'vitest';
import { buildWav, s16Tone, splitRagged } from './__fixtures__/wav.js';
import { AudioFormatError } from './errors.js';
import { TRANSCODED_MP3_BITRATE_KBPS } from './mp3-encoder.js';
import type { OutputDescription, TargetFormat } from './output-description.js';
import { createOutputPipeline, isAlreadyTarget } from './output-pipeline.js';
import { Resampler } from './resampler.js';
import { toS16leBytes } from './sample-decoder.js';

function run(source: OutputDescription, target: TargetFormat, body: Iterable<Uint8Array | string>): Buffer {
  const pipeline = createOutputPipeline(source, target);
  const out: Uint8Array[] = [];
  for (const chunk of body) out.push(...pipeline.push(chunk));
  out.push(...pipeline.end());
  return Buffer.concat(out);
}

/** Level of a frequency in s16le mono 24 kHz bytes (single-bin DFT over the middle). */
function amplitudeAt(pcm: Buffer, hertz: number): number {
  const samples = new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length));
  const start = Math.floor(samples.length * 0.2);
  const end = Math.floor(samples.length * 0.8);
  let real = 0;
  let imaginary = 0;
  for (let index = start; index < end; index++) {
    real += samples[index]! * Math.cos((2 * Math.PI * hertz * index) / 24_000);
    imaginary += samples[index]! * Math.sin((2 * Math.PI * hertz * index) / 24_000);
  }
  return (2 * Math.hypot(real, imaginary)) / (end - start);
}

let ffprobeNoted = false;
async function probe(bytes: Uint8Array, format: 'mp3' | 'pcm') {
  const probed = await probeAudio(bytes, format);
  if (!probed && !ffprobeNoted) {
    ffprobeNoted = true;
    announceSkip('audio pipeline: ffprobe checks', 'ffprobe is not installed (apt-get install ffmpeg)');
  }
  return probed;
}

const SECONDS = 1.5;
const sources: Array<[string, OutputDescription, Buffer]> = [
  ['WAV 48 kHz stereo s16, streaming size', { container: 'wav' }, buildWav(s16Tone(1000, 48_000, SECONDS, 2), { sampleRate: 48_000, channels: 2, formatTag: 1, bitsPerSample: 16, dataSize: 0xffffffff, between: [['LIST', new Uint8Array(26)]] })],
  ['WAV 44.1 kHz mono s16', { container: 'wav' }, buildWav(s16Tone(1000, 44_100, SECONDS), { sampleRate: 44_100, channels: 1, formatTag: 1, bitsPerSample: 16 })],
  ['raw 22.05 kHz s16le', { container: 'raw', encoding: 's16le', sampleRate: 22_050 }, s16Tone(1000, 22_050, SECONDS)],
  ['raw 16 kHz s16le', { container: 'raw', encoding: 's16le', sampleRate: 16_000 }, s16Tone(1000, 16_000, SECONDS)],
  ['raw 8 kHz s16le stereo', { container: 'raw', encoding: 's16le', sampleRate: 8000, channels: 2 }, s16Tone(1000, 8000, SECONDS, 2)],
  ['raw 24 kHz s16le', { container: 'raw', encoding: 's16le', sampleRate: 24_000 }, s16Tone(1000, 24_000, SECONDS)],
];

describe('createOutputPipeline', () => {
  it.each(sources)('%s → pcm is s16le 24 kHz mono, same duration, tone intact', async (_name, source, body) => {
    const pcm = run(source, 'pcm', splitRagged(body));
    expect(pcm.length % 2).toBe(0);
    expect(Math.abs(pcm.length / 2 - SECONDS * 24_000)).toBeLessThanOrEqual(1);
    expect(amplitudeAt(pcm, 1000)).toBeGreaterThan(8000 * 0.98);
    const probed = await probe(pcm, 'pcm');
    if (probed) {
      expect(probed).toMatchObject({ codec: 'pcm_s16le', sampleRate: 24_000, channels: 1 });
      expect(probed.durationSeconds).toBeCloseTo(SECONDS, 2);
    }
  });

  it.each(sources)('%s → mp3 is MPEG audio at 24 kHz mono of the right length', async (_name, source, body) => {
    const mp3 = run(source, 'mp3', splitRagged(body));
    const frames = parseMp3Frames(mp3);
    expect(frames).toMatchObject({ sampleRate: 24_000, channels: 1 });
    expect(frames.trailingBytes).toBe(0);
    // LAME adds its encoder delay and pads the last frame: at most ~3 frames (72 ms) beyond the input.
    expect(frames.durationSeconds).toBeGreaterThanOrEqual(SECONDS);
    expect(frames.durationSeconds).toBeLessThan(SECONDS + 0.15);
    const probed = await probe(mp3, 'mp3');
    if (probed) {
      expect(probed).toMatchObject({ codec: 'mp3', sampleRate: 24_000, channels: 1 });
      expect(probed.durationSeconds).toBeGreaterThan(SECONDS - 0.05);
      expect(probed.durationSeconds).toBeLessThan(SECONDS + 0.2);
    }
  });

  it('encodes mp3 at the documented bit rate', () => {
    const mp3 = run({ container: 'raw', encoding: 's16le', sampleRate: 48_000 }, 'mp3', [s16Tone(440, 48_000, 1)]);
    // MPEG-2 Layer III bit-rate index (third header byte, high nibble) → kbps.
    const mpeg2Kbps = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
    expect(mpeg2Kbps[mp3[2]! >> 4]).toBe(TRANSCODED_MP3_BITRATE_KBPS);
    expect(parseMp3Frames(mp3).frames).toBeGreaterThan(40);
  });

  it.each([
    ['f32le', 3, 32, (value: number, bytes: Buffer, offset: number) => bytes.writeFloatLE(value / 32768, offset)],
    ['s24le', 1, 24, (value: number, bytes: Buffer, offset: number) => bytes.writeIntLE(value * 256, offset, 3)],
  ] as const)('converts %s samples', (_encoding, formatTag, bits, write) => {
    const tone = s16Tone(1000, 48_000, 1);
    const converted = Buffer.alloc((tone.length / 2) * (bits / 8));
    for (let index = 0; index < tone.length / 2; index++) write(tone.readInt16LE(index * 2), converted, (index * bits) / 8);
    const pcm = run({ container: 'wav' }, 'pcm', splitRagged(buildWav(converted, { sampleRate: 48_000, channels: 1, formatTag, bitsPerSample: bits })));
    expect(amplitudeAt(pcm, 1000)).toBeGreaterThan(8000 * 0.98);
  });

  it('decodes mu-law and A-law (8 kHz telephony) close to the original', () => {
    // Encoded with the G.711 reference rule; the decoded tone must come back within companding error.
    const mulaw = Buffer.from([0xff, 0x7f, 0x80, 0x00]); // +0, -0, +max, -max
    const pcm = run({ container: 'raw', encoding: 'mulaw', sampleRate: 24_000 }, 'pcm', [mulaw]);
    expect([...new Int16Array(pcm.buffer.slice(pcm.byteOffset, pcm.byteOffset + pcm.length))]).toEqual([0, 0, 32124, -32124]);
    const alaw = Buffer.from([0xd5, 0x55, 0xaa, 0x2a]);
    const decoded = run({ container: 'raw', encoding: 'alaw', sampleRate: 24_000 }, 'pcm', [alaw]);
    expect([...new Int16Array(decoded.buffer.slice(decoded.byteOffset, decoded.byteOffset + decoded.length))]).toEqual([8, -8, 32256, -32256]);
  });

  it('downmixes stereo by averaging the channels', () => {
    const stereo = Buffer.alloc(8);
    stereo.writeInt16LE(1000, 0);
    stereo.writeInt16LE(3000, 2);
    stereo.writeInt16LE(-2000, 4);
    stereo.writeInt16LE(0, 6);
    const pcm = run({ container: 'raw', encoding: 's16le', sampleRate: 24_000, channels: 2 }, 'pcm', splitRagged(stereo, [3]));
    expect([pcm.readInt16LE(0), pcm.readInt16LE(2)]).toEqual([2000, -1000]);
  });

  it('unwraps base64 WAV in SSE events and hex PCM in NDJSON', () => {
    const wav = buildWav(s16Tone(1000, 44_100, 1), { sampleRate: 44_100, channels: 1, formatTag: 1, bitsPerSample: 16, dataSize: 0xffffffff });
    const events = [...splitRagged(wav, [4410])].map((part) => `data: ${JSON.stringify({ type: 'chunk', data: Buffer.from(part).toString('base64') })}\n\n`);
    const pcm = run({ container: 'wav', framing: { kind: 'sse', audioField: 'data' } }, 'pcm', splitRagged(Buffer.from(events.join('')), [777]));
    expect(Math.abs(pcm.length / 2 - 24_000)).toBeLessThanOrEqual(1);
    expect(amplitudeAt(pcm, 1000)).toBeGreaterThan(8000 * 0.98);

    const raw = s16Tone(1000, 16_000, 1);
    const lines = [...splitRagged(raw, [3200])].map((part) => JSON.stringify({ data: { audio: Buffer.from(part).toString('hex') } }) + '\n');
    const fromHex = run({ container: 'raw', encoding: 's16le', sampleRate: 16_000, framing: { kind: 'ndjson', audioField: 'data.audio', encoding: 'hex' } }, 'pcm', lines);
    expect(fromHex.length / 2).toBe(24_000);
  });

  it('passes audio that is already the target through untouched', () => {
    const mp3Bytes = Buffer.from([0xff, 0xf3, 0x01, 0x02]);
    expect(run({ container: 'mp3' }, 'mp3', [mp3Bytes]).equals(mp3Bytes)).toBe(true);
    const pcm = s16Tone(440, 24_000, 0.1);
    expect(run({ container: 'raw', encoding: 's16le', sampleRate: 24_000 }, 'pcm', splitRagged(pcm)).equals(pcm)).toBe(true);
    const wav = buildWav(pcm, { sampleRate: 24_000, channels: 1, formatTag: 1, bitsPerSample: 16 });
    expect(run({ container: 'wav' }, 'pcm', splitRagged(wav)).equals(pcm)).toBe(true);
    expect(isAlreadyTarget({ container: 'mp3' }, 'mp3')).toBe(true);
    expect(isAlreadyTarget({ container: 'raw', encoding: 's16le', sampleRate: 24_000 }, 'pcm')).toBe(true);
    expect(isAlreadyTarget({ container: 'raw', encoding: 's16le', sampleRate: 44_100 }, 'pcm')).toBe(false);
    expect(isAlreadyTarget({ container: 'mp3', framing: { kind: 'sse' } }, 'mp3')).toBe(false);
  });

  it('refuses mp3 → pcm up front', () => {
    expect(() => createOutputPipeline({ container: 'mp3' }, 'pcm')).toThrow(AudioFormatError);
  });

  it('emits output before the input ends: transform() yields while the source is still open', async () => {
    let released!: () => void;
    const gate = new Promise<void>((resolve) => (released = resolve));
    let sourceFinished = false;
    const wav = buildWav(s16Tone(1000, 48_000, 2), { sampleRate: 48_000, channels: 1, formatTag: 1, bitsPerSample: 16, dataSize: 0xffffffff });
    async function* upstream() {
      yield wav.subarray(0, 48_000); // half a second
      await gate; // the rest only once the consumer has seen output
      yield wav.subarray(48_000);
      sourceFinished = true;
    }
    for (const target of ['mp3', 'pcm'] as const) {
      const output = createOutputPipeline({ container: 'wav' }, target).transform(upstream());
      const first = await output.next();
      expect(first.done).toBe(false);
      expect(sourceFinished).toBe(false);
      released();
      let rest = 0;
      for await (const bytes of output) rest += bytes.length;
      expect(rest).toBeGreaterThan(0);
      expect(sourceFinished).toBe(true);
      sourceFinished = false;
    }
  });

  it('resamples a large chunk in slices: its first output leaves before the rest of the chunk is resampled', async () => {
    const second = s16Tone(440, 48_000, 1);
    for (const target of ['pcm', 'mp3'] as const) {
      const fed: number[] = [];
      const realProcess = Resampler.prototype.process;
      const spy = vi.spyOn(Resampler.prototype, 'process').mockImplementation(function (this: Resampler, input: Float32Array) {
        fed.push(input.length);
        return realProcess.call(this, input);
      });
      try {
        async function* upstream() {
          yield second;
        }
        const output = createOutputPipeline({ container: 'raw', encoding: 's16le', sampleRate: 48_000 }, target).transform(upstream());
        expect((await output.next()).done).toBe(false);
        const before = fed.reduce((sum, length) => sum + length, 0);
        // pcm: one slice (576 output samples' worth); mp3: LAME's first frame needs at most 1,152 output samples,
        // which with the filter's look-ahead are three slices of input. Unsliced, the whole second went in.
        expect(before, target).toBeLessThanOrEqual(target === 'pcm' ? 1152 : 3 * 1152);
        await output.return();
      } finally {
        spy.mockRestore();
      }
    }
  });

  it('slicing changes nothing: a chunk of any size gives the whole signal resampled at once', () => {
    const body = s16Tone(1000, 48_000, 0.7);
    const whole = new Resampler(48_000, 24_000);
    const samples = Float32Array.from(new Int16Array(body.buffer, body.byteOffset, body.length / 2));
    const expected = Buffer.concat([toS16leBytes(whole.process(samples)), toS16leBytes(whole.end())]);
    const source: OutputDescription = { container: 'raw', encoding: 's16le', sampleRate: 48_000 };
    expect(run(source, 'pcm', [body]).equals(expected)).toBe(true);
    expect(run(source, 'pcm', splitRagged(body)).equals(expected)).toBe(true);
  });

  it('keeps none of a source chunk once its output is handed on: transform() waits for the next without it', async () => {
    for (const target of ['pcm', 'mp3'] as const) {
      let first!: WeakRef<ArrayBufferLike>;
      let askedForMore!: () => void;
      const asked = new Promise<void>((resolve) => (askedForMore = resolve));
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let calls = 0;
      // Not a generator: one would itself hold what it yielded until it resumes.
      const source: AsyncIterable<Uint8Array> = {
        [Symbol.asyncIterator]: () => ({
          async next(): Promise<IteratorResult<Uint8Array>> {
            calls += 1;
            if (calls === 1) {
              const chunk = s16Tone(440, 48_000, 0.5);
              // The memory, not the view: a view into it (subarray) holds it as well.
              first = new WeakRef(chunk.buffer);
              return { done: false, value: chunk };
            }
            askedForMore();
            await gate;
            return { done: true, value: undefined };
          },
        }),
      };
      let pieces = 0;
      const draining = (async () => {
        for await (const _bytes of createOutputPipeline({ container: 'raw', encoding: 's16le', sampleRate: 48_000 }, target).transform(source)) pieces += 1;
      })();
      await asked;
      expect(pieces).toBeGreaterThan(0);
      expect(await isCollected(first), target).toBe(true);
      release();
      await draining;
    }
  });

  it('closing the transform early closes the source', async () => {
    let closed = false;
    async function* upstream() {
      try {
        for (;;) yield s16Tone(440, 48_000, 0.1);
      } finally {
        closed = true;
      }
    }
    for await (const _bytes of createOutputPipeline({ container: 'raw', encoding: 's16le', sampleRate: 48_000 }, 'mp3').transform(upstream())) break;
    expect(closed).toBe(true);
  });
});

describe('createOutputPipeline transform: leaving on an error', () => {
  it('closes the source when a stage throws, and reports the stage error even if closing fails', async () => {
    let returned = 0;
    const source: AsyncIterable<Uint8Array> = {
      [Symbol.asyncIterator]: () => ({
        next: async () => ({ done: false, value: new TextEncoder().encode('this is not a RIFF/WAVE header at all, just text') }),
        return: async () => {
          returned += 1;
          throw new Error('the source failed to close');
        },
      }),
    };
    const output = createOutputPipeline({ container: 'wav' }, 'mp3').transform(source);
    await expect((async () => {
      for await (const _bytes of output) void _bytes;
    })()).rejects.toThrow(AudioFormatError);
    expect(returned).toBe(1);
  });
});
