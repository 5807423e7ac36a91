import { describe, expect, it } from 'vitest';
import { Resampler } from './resampler.js';

const AMPLITUDE = 10_000;

function tone(hertz: number, rate: number, seconds: number): Float32Array {
  const samples = new Float32Array(Math.round(rate * seconds));
  for (let index = 0; index < samples.length; index++) samples[index] = AMPLITUDE * Math.sin((2 * Math.PI * hertz * index) / rate);
  return samples;
}

/** Amplitude of one frequency in `samples` (a single-bin DFT over the steady middle part). */
function amplitudeAt(samples: Float32Array, hertz: number, rate: number): number {
  const start = Math.floor(samples.length * 0.2);
  const end = Math.floor(samples.length * 0.8);
  let real = 0;
  let imaginary = 0;
  for (let index = start; index < end; index++) {
    const angle = (2 * Math.PI * hertz * index) / rate;
    real += samples[index]! * Math.cos(angle);
    imaginary += samples[index]! * Math.sin(angle);
  }
  return (2 * Math.hypot(real, imaginary)) / (end - start);
}

function rms(samples: Float32Array): number {
  const start = Math.floor(samples.length * 0.2);
  const end = Math.floor(samples.length * 0.8);
  let sum = 0;
  for (let index = start; index < end; index++) sum += samples[index]! ** 2;
  return Math.sqrt(sum / (end - start));
}

function resampleInBlocks(resampler: Resampler, input: Float32Array, blockSizes: number[]): Float32Array {
  const parts: Float32Array[] = [];
  let offset = 0;
  let turn = 0;
  while (offset < input.length) {
    const size = blockSizes[turn++ % blockSizes.length]!;
    parts.push(resampler.process(input.subarray(offset, offset + size)));
    offset += size;
  }
  parts.push(resampler.end());
  const output = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let position = 0;
  for (const part of parts) {
    output.set(part, position);
    position += part.length;
  }
  return output;
}

describe('Resampler', () => {
  it.each([8000, 16000, 22050, 44100, 48000])('keeps a 1 kHz tone from %i Hz at its level and frequency', (rate) => {
    const output = resampleInBlocks(new Resampler(rate, 24_000), tone(1000, rate, 1), [4096]);
    expect(amplitudeAt(output, 1000, 24_000)).toBeGreaterThan(AMPLITUDE * 0.99);
    expect(amplitudeAt(output, 1000, 24_000)).toBeLessThan(AMPLITUDE * 1.01);
    // Nothing else: the residual after the tone is tiny.
    expect(amplitudeAt(output, 3000, 24_000)).toBeLessThan(AMPLITUDE * 0.001);
  });

  it.each([13_000, 16_000, 20_000])('removes a %i Hz tone from 48 kHz input instead of folding it down', (hertz) => {
    const output = resampleInBlocks(new Resampler(48_000, 24_000), tone(hertz, 48_000, 1), [4096]);
    // Plain sample dropping would alias it to 24000 - hertz at full level.
    expect(amplitudeAt(output, 24_000 - hertz, 24_000)).toBeLessThan(AMPLITUDE * 0.001);
    expect(rms(output)).toBeLessThan(AMPLITUDE * 0.001);
  });

  it('removes a 14 kHz tone from 44.1 kHz input', () => {
    const output = resampleInBlocks(new Resampler(44_100, 24_000), tone(14_000, 44_100, 1), [1000]);
    expect(rms(output)).toBeLessThan(AMPLITUDE * 0.001);
  });

  it('does not create images above the input band when upsampling 8 kHz', () => {
    const output = resampleInBlocks(new Resampler(8000, 24_000), tone(1000, 8000, 1), [333]);
    // Zero-stuffing without a filter would leave images at 8000 ± 1000 Hz.
    expect(amplitudeAt(output, 7000, 24_000)).toBeLessThan(AMPLITUDE * 0.001);
    expect(amplitudeAt(output, 9000, 24_000)).toBeLessThan(AMPLITUDE * 0.001);
  });

  it.each([8000, 16000, 22050, 44100, 48000])('gives the same samples whatever the block sizes (%i Hz)', (rate) => {
    const input = tone(1234, rate, 0.5);
    const whole = resampleInBlocks(new Resampler(rate, 24_000), input, [input.length]);
    const ragged = resampleInBlocks(new Resampler(rate, 24_000), input, [1, 7, 160, 3, 4095, 2]);
    expect(ragged.length).toBe(whole.length);
    let largest = 0;
    for (let index = 0; index < whole.length; index++) largest = Math.max(largest, Math.abs(whole[index]! - ragged[index]!));
    expect(largest).toBeLessThan(1e-3);
  });

  it('has no discontinuity at chunk boundaries', () => {
    // A slow tone cut into many blocks: the largest sample-to-sample step stays what the tone itself allows.
    const output = resampleInBlocks(new Resampler(44_100, 24_000), tone(200, 44_100, 1), [441, 100, 1]);
    const allowed = (2 * Math.PI * 200 * AMPLITUDE) / 24_000;
    let largestStep = 0;
    for (let index = 200; index < output.length - 200; index++) largestStep = Math.max(largestStep, Math.abs(output[index]! - output[index - 1]!));
    expect(largestStep).toBeLessThan(allowed * 1.02);
  });

  it.each([
    [8000, 1],
    [16000, 12_345],
    [22050, 22_050],
    [44100, 44_101],
    [48000, 3],
    [48000, 47_999],
  ])('outputs input × ratio samples within one (%i Hz, %i samples)', (rate, count) => {
    const output = resampleInBlocks(new Resampler(rate, 24_000), new Float32Array(count).fill(100), [977]);
    expect(Math.abs(output.length - (count * 24_000) / rate)).toBeLessThanOrEqual(1);
  });

  it('keeps a constant signal constant (unity gain at every phase)', () => {
    const output = resampleInBlocks(new Resampler(22_050, 24_000), new Float32Array(22_050).fill(1000), [512]);
    let largest = 0;
    for (let index = 100; index < output.length - 100; index++) largest = Math.max(largest, Math.abs(output[index]! - 1000));
    expect(largest).toBeLessThan(0.1);
  });

  it('keeps the timing: a click comes out at the same instant', () => {
    const input = new Float32Array(4800);
    input[2400] = 30_000; // 50 ms into 48 kHz input
    const output = resampleInBlocks(new Resampler(48_000, 24_000), input, [1000]);
    let peak = 0;
    for (let index = 1; index < output.length; index++) if (Math.abs(output[index]!) > Math.abs(output[peak]!)) peak = index;
    expect(peak).toBe(1200);
  });
});
