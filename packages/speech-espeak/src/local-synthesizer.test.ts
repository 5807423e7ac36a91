// Output format and request validation, against the compiled package and real worker threads.
import { afterAll, describe, expect, it } from 'vitest';
import { collect, concatenate, loadBuiltPackage, pcmRms } from '../test/built-package.js';

const { createLocalSynthesizer, UnknownVoiceError } = await loadBuiltPackage();
const synthesizer = createLocalSynthesizer({ workers: 2 });
afterAll(() => synthesizer.close());

const SENTENCE = 'The quick brown fox jumps over the lazy dog.';

async function pcmSeconds(text: string, voice = 'en-us', speed?: number): Promise<number> {
  const bytes = concatenate(await collect(synthesizer.synthesize({ text, voice, format: 'pcm', speed })));
  return bytes.byteLength / 2 / 24_000;
}

interface Mp3Frame {
  offset: number;
  bitrateKbps: number;
  length: number;
}

// MPEG-2 (version bits 10) Layer III (layer bits 01) bitrates, by the header's 4-bit index.
const MPEG2_LAYER3_KBPS = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];

/** Walks the stream frame by frame; throws at the first byte that is not a valid 24 kHz mono frame. */
function parseMp3Frames(bytes: Uint8Array): Mp3Frame[] {
  const frames: Mp3Frame[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 4 > bytes.length) throw new Error(`truncated header at ${offset}`);
    const [b0, b1, b2, b3] = [bytes[offset]!, bytes[offset + 1]!, bytes[offset + 2]!, bytes[offset + 3]!];
    if (b0 !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no frame sync at ${offset}`);
    if (((b1 >> 3) & 0b11) !== 0b10) throw new Error(`not MPEG-2 at ${offset}`);
    if (((b1 >> 1) & 0b11) !== 0b01) throw new Error(`not Layer III at ${offset}`);
    const bitrateKbps = MPEG2_LAYER3_KBPS[b2 >> 4] ?? 0;
    if (bitrateKbps === 0) throw new Error(`bad bitrate index at ${offset}`);
    if (((b2 >> 2) & 0b11) !== 0b01) throw new Error(`sample rate is not 24000 Hz at ${offset}`);
    if (b3 >> 6 !== 0b11) throw new Error(`not mono at ${offset}`);
    const padding = (b2 >> 1) & 1;
    // MPEG-2 Layer III: 576 samples per frame, so 72 * bitrate / sample rate bytes.
    const length = Math.floor((72 * bitrateKbps * 1000) / 24_000) + padding;
    frames.push({ offset, bitrateKbps, length });
    offset += length;
  }
  if (offset !== bytes.length) throw new Error(`last frame runs past the end (${offset} > ${bytes.length})`);
  return frames;
}

describe('voices()', () => {
  it('lists stable, URL-safe ids with BCP 47 languages', () => {
    const voices = synthesizer.voices();
    expect(voices.length).toBeGreaterThanOrEqual(10);
    expect(new Set(voices.map((voice) => voice.id)).size).toBe(voices.length);
    for (const voice of voices) {
      expect(voice.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(Intl.getCanonicalLocales(voice.language)).toHaveLength(1);
    }
    expect(voices.map((voice) => voice.id)).toEqual(expect.arrayContaining(['en-us', 'en-us-f', 'en-gb', 'en-gb-f']));
  });

  it('every listed voice speaks', async () => {
    for (const voice of synthesizer.voices()) {
      const bytes = concatenate(await collect(synthesizer.synthesize({ text: '1 2 3.', voice: voice.id, format: 'pcm' })));
      expect(pcmRms(bytes), voice.id).toBeGreaterThan(300);
    }
  });
});

describe('pcm', () => {
  it('is s16le at 24 kHz: even byte count, plausible duration, not silent, streamed in several chunks', async () => {
    const chunks = await collect(synthesizer.synthesize({ text: SENTENCE, voice: 'en-us', format: 'pcm' }));
    const bytes = concatenate(chunks);
    expect(chunks.length).toBeGreaterThan(3);
    for (const chunk of chunks) expect(chunk.byteLength % 2).toBe(0);
    const seconds = bytes.byteLength / 2 / 24_000;
    expect(seconds).toBeGreaterThan(1.2);
    expect(seconds).toBeLessThan(6);
    expect(pcmRms(bytes)).toBeGreaterThan(1_000);
  });

  it('makes faster speech for higher speed and clamps extremes', async () => {
    const slow = await pcmSeconds(SENTENCE, 'en-us', 0.5);
    const normal = await pcmSeconds(SENTENCE, 'en-us');
    const fast = await pcmSeconds(SENTENCE, 'en-us', 2);
    expect(slow).toBeGreaterThan(normal * 1.3);
    expect(fast).toBeLessThan(normal * 0.75);
    expect(await pcmSeconds(SENTENCE, 'en-us', 4)).toBeGreaterThan(0.3);
  });

  it('reads markup-like text literally instead of obeying it as SSML', async () => {
    expect(await pcmSeconds('<break time="30s"/> hi')).toBeLessThan(10);
  });

  it('yields nothing for blank text', async () => {
    expect(await collect(synthesizer.synthesize({ text: '  \n ', voice: 'en-us', format: 'pcm' }))).toEqual([]);
  });
});

describe('mp3', () => {
  it('is a run of consecutive MPEG-2 Layer III 24 kHz mono frames at 48 kbps', async () => {
    const text = `${SENTENCE} Pack my box with five dozen liquor jugs.`;
    const chunks = await collect(synthesizer.synthesize({ text, voice: 'en-gb-f', format: 'mp3' }));
    expect(chunks.length).toBeGreaterThan(1);
    const frames = parseMp3Frames(concatenate(chunks));
    expect(new Set(frames.map((frame) => frame.bitrateKbps))).toEqual(new Set([48]));
    const seconds = (frames.length * 576) / 24_000;
    const pcm = await pcmSeconds(text, 'en-gb-f');
    // The encoder adds up to a couple of frames of delay and padding.
    expect(seconds).toBeGreaterThan(pcm - 0.1);
    expect(seconds).toBeLessThan(pcm + 0.2);
  });
});

describe('validation', () => {
  it('throws UnknownVoiceError synchronously, before any audio', () => {
    const attempt = () => synthesizer.synthesize({ text: 'hello', voice: 'no-such-voice', format: 'mp3' });
    expect(attempt).toThrow(UnknownVoiceError);
    expect(attempt).toThrow(/no-such-voice/);
  });

  it('rejects a speed that is not a positive number', () => {
    expect(() => synthesizer.synthesize({ text: 'hello', voice: 'en-us', format: 'pcm', speed: 0 })).toThrow(RangeError);
    expect(() => synthesizer.synthesize({ text: 'hello', voice: 'en-us', format: 'pcm', speed: Number.NaN })).toThrow(RangeError);
  });
});
