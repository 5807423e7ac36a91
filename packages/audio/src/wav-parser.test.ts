import { isCollected } from '@voice-router/test-support';
import { describe, expect, it } from 'vitest';
import { buildWav, splitRagged } from './__fixtures__/wav.js';
import { AudioFormatError } from './errors.js';
import { WavParser } from './wav-parser.js';

const data = Buffer.from(Uint8Array.from({ length: 1001 }, (_, index) => (index * 13) & 0xff));
const pcm16 = { sampleRate: 48_000, channels: 2, formatTag: 1, bitsPerSample: 16 };

function parse(wav: Uint8Array, sizes?: number[]): { audio: Buffer; parser: WavParser } {
  const parser = new WavParser();
  const pieces: Uint8Array[] = [];
  for (const piece of splitRagged(wav, sizes)) pieces.push(...parser.push(piece));
  parser.end();
  return { audio: Buffer.concat(pieces), parser };
}

describe('WavParser', () => {
  it.each([[[1]], [[2, 5]], [[11, 13, 17]], [[100_000]]])('strips the header whatever the split (%j)', (sizes) => {
    const wav = buildWav(data, {
      ...pcm16,
      before: [['JUNK', new Uint8Array(27)]],
      between: [['LIST', Buffer.from('INFOISFT\x05\x00\x00\x00Lavf\x00')], ['fact', new Uint8Array(4)]],
      after: [['id3 ', new Uint8Array(9)]],
    });
    const { audio, parser } = parse(wav, sizes);
    expect(audio.equals(data)).toBe(true);
    expect(parser.format).toEqual({ encoding: 's16le', sampleRate: 48_000, channels: 2 });
  });

  it.each([0xffffffff, 0])('reads a streaming WAV (data size %i) to the end of the body', (dataSize) => {
    // A streaming WAV's payload runs to the end of the body: whole frames, no pad byte.
    const even = data.subarray(0, 1000);
    const { audio } = parse(buildWav(even, { ...pcm16, dataSize }), [3]);
    expect(audio.equals(even)).toBe(true);
  });

  it('keeps nothing of a chunk once it has been pushed, not even of the one that held the header', async () => {
    const parser = new WavParser();
    const wav = buildWav(data, pcm16);
    // The chunk is a copy and its audio is copied out (the parser returns views into it): nothing else holds it.
    let first: WeakRef<ArrayBufferLike> | undefined;
    let firstAudio = Buffer.alloc(0);
    ((chunk: Uint8Array) => {
      // The memory, not the view: a view into it (subarray) holds it as well.
      first = new WeakRef(chunk.buffer);
      firstAudio = Buffer.concat(parser.push(chunk));
    })(Uint8Array.from(wav.subarray(0, 200)));
    expect(firstAudio.length).toBeGreaterThan(0);
    expect(await isCollected(first!)).toBe(true);
    expect(Buffer.concat([firstAudio, ...parser.push(wav.subarray(200))]).equals(data)).toBe(true);
  });

  it('reads RF64 with a ds64 chunk', () => {
    const even = data.subarray(0, 1000);
    const wav = buildWav(even, { ...pcm16, riffId: 'RF64', before: [['ds64', new Uint8Array(28)]], dataSize: 0xffffffff });
    expect(parse(wav).audio.equals(even)).toBe(true);
  });

  it.each([
    [{ formatTag: 3, bitsPerSample: 32 }, 'f32le'],
    [{ formatTag: 7, bitsPerSample: 8 }, 'mulaw'],
    [{ formatTag: 6, bitsPerSample: 8 }, 'alaw'],
    [{ formatTag: 1, bitsPerSample: 24 }, 's24le'],
    [{ formatTag: 1, bitsPerSample: 8 }, 'u8'],
    [{ formatTag: 0xfffe, bitsPerSample: 32, subFormat: 3 }, 'f32le'],
    [{ formatTag: 0xfffe, bitsPerSample: 16, subFormat: 1 }, 's16le'],
  ])('reads the sample format from fmt (%j)', (format, encoding) => {
    const { parser } = parse(buildWav(data.subarray(0, 960), { sampleRate: 8000, channels: 1, ...format }));
    expect(parser.format?.encoding).toBe(encoding);
  });

  it('refuses what is not a WAV, a data chunk before fmt, a truncated header and unknown formats', () => {
    expect(() => new WavParser().push(Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00\x00\x00'))).toThrow(AudioFormatError);
    const noFmt = Buffer.concat([Buffer.from('RIFF\x00\x00\x00\x00WAVEdata\x04\x00\x00\x00'), Buffer.alloc(4)]);
    expect(() => new WavParser().push(noFmt)).toThrow(AudioFormatError);
    const truncated = new WavParser();
    truncated.push(buildWav(data, pcm16).subarray(0, 30));
    expect(() => truncated.end()).toThrow(AudioFormatError);
    expect(() => new WavParser().push(buildWav(data, { ...pcm16, formatTag: 2 }))).toThrow(AudioFormatError);
  });
});
