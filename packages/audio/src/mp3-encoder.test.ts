import { parseMp3Frames } from '@voice-router/test-support';
import { describe, expect, it } from 'vitest';
import { StreamingMp3Encoder } from './mp3-encoder.js';

/** A tone on the 16-bit scale, as the resampler hands it on. */
function tone(hertz: number, seconds: number, amplitude: number): Float32Array {
  return Float32Array.from({ length: Math.round(24_000 * seconds) }, (_, index) => amplitude * Math.sin((2 * Math.PI * hertz * index) / 24_000));
}

function encodeAll(encoder: StreamingMp3Encoder, samples: Float32Array, slice = 576): Buffer {
  const out: Uint8Array[] = [];
  for (let start = 0; start < samples.length; start += slice) out.push(encoder.encode(samples.subarray(start, start + slice)));
  out.push(encoder.flush());
  return Buffer.concat(out);
}

describe('StreamingMp3Encoder (LAME in WebAssembly)', () => {
  it('encodes 24 kHz mono at 64 kbps CBR, frame by frame, of the input length', () => {
    const samples = tone(440, 2, 8000);
    const encoder = new StreamingMp3Encoder();
    let firstAt = -1;
    const out: Uint8Array[] = [];
    for (let start = 0; start < samples.length; start += 576) {
      const frames = encoder.encode(samples.subarray(start, start + 576));
      if (frames.length > 0 && firstAt < 0) firstAt = start + 576;
      out.push(frames);
    }
    out.push(encoder.flush());
    const summary = parseMp3Frames(Buffer.concat(out));
    expect(summary).toMatchObject({ sampleRate: 24_000, channels: 1, trailingBytes: 0 });
    expect(summary.durationSeconds).toBeGreaterThanOrEqual(2);
    expect(summary.durationSeconds).toBeLessThan(2.1);
    // 64 kbps: 8,000 bytes a second.
    expect(Math.abs(Buffer.concat(out).length / summary.durationSeconds - 8000)).toBeLessThan(100);
    // Output leaves while the input still arrives: within the first two frames' worth of samples.
    expect(firstAt).toBeGreaterThan(0);
    expect(firstAt).toBeLessThanOrEqual(1152);
  });

  it('keeps each encoder to itself: two interleaved streams give what each gives alone', () => {
    const low = tone(300, 0.5, 6000);
    const high = tone(2000, 0.5, 9000);
    const aloneLow = encodeAll(new StreamingMp3Encoder(), low);
    const aloneHigh = encodeAll(new StreamingMp3Encoder(), high);
    expect(aloneLow.equals(aloneHigh)).toBe(false);
    const a = new StreamingMp3Encoder();
    const b = new StreamingMp3Encoder();
    const outA: Uint8Array[] = [];
    const outB: Uint8Array[] = [];
    for (let start = 0; start < low.length; start += 576) {
      outA.push(a.encode(low.subarray(start, start + 576)));
      outB.push(b.encode(high.subarray(start, start + 576)));
    }
    outA.push(a.flush());
    outB.push(b.flush());
    expect(Buffer.concat(outA).equals(aloneLow)).toBe(true);
    expect(Buffer.concat(outB).equals(aloneHigh)).toBe(true);
  });

  it("reuses a flushed encoder's instance cleanly: a stream started after another ended gives what it gives alone", () => {
    const low = tone(300, 0.5, 6000);
    const high = tone(2000, 0.5, 9000);
    const aloneLow = encodeAll(new StreamingMp3Encoder(), low);
    const aloneHigh = encodeAll(new StreamingMp3Encoder(), high);
    // B runs throughout; A ends halfway through it, and C (built after A's flush, in A's instance or
    // another idle one) runs beside B to the end.
    const b = new StreamingMp3Encoder();
    const outB: Uint8Array[] = [];
    const half = Math.floor(high.length / 576 / 2) * 576;
    for (let start = 0; start < half; start += 576) outB.push(b.encode(high.subarray(start, start + 576)));
    encodeAll(new StreamingMp3Encoder(), low);
    const c = new StreamingMp3Encoder();
    const outC: Uint8Array[] = [];
    for (let start = 0; start < low.length; start += 576) {
      outC.push(c.encode(low.subarray(start, start + 576)));
      if (half + start < high.length) outB.push(b.encode(high.subarray(half + start, half + start + 576)));
    }
    outB.push(b.flush());
    outC.push(c.flush());
    expect(Buffer.concat(outB).equals(aloneHigh)).toBe(true);
    expect(Buffer.concat(outC).equals(aloneLow)).toBe(true);
  });

  it('refuses any use after its flush, when its instance may already serve another encoder', () => {
    const encoder = new StreamingMp3Encoder();
    encoder.encode(tone(440, 0.1, 8000));
    encoder.flush();
    expect(() => encoder.encode(tone(440, 0.1, 8000))).toThrow(/after its flush/);
    expect(() => encoder.flush()).toThrow(/after its flush/);
  });

  it('takes samples beyond the 16-bit scale (clipped) and slices of any length', () => {
    const loud = tone(440, 0.5, 60_000);
    const summary = parseMp3Frames(encodeAll(new StreamingMp3Encoder(), loud, 1000));
    expect(summary).toMatchObject({ sampleRate: 24_000, channels: 1, trailingBytes: 0 });
    expect(summary.durationSeconds).toBeGreaterThanOrEqual(0.5);
    expect(encodeAll(new StreamingMp3Encoder(), loud, 7).length).toBeGreaterThan(0);
  });
});
