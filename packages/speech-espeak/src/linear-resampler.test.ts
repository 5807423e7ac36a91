import { describe, expect, it } from 'vitest';
import { LinearResampler } from './linear-resampler.js';

function tone(length: number): Int16Array {
  return Int16Array.from({ length }, (_, index) => Math.round(12_000 * Math.sin((2 * Math.PI * 440 * index) / 22_050)));
}

describe('LinearResampler', () => {
  it('turns 22,050 Hz into 24,000 Hz', () => {
    const output = new LinearResampler(22_050, 24_000).process(tone(22_050));
    expect(Math.abs(output.length - 24_000)).toBeLessThanOrEqual(1);
  });

  it('gives the same samples whether the stream arrives whole or in odd-sized blocks', () => {
    const input = tone(10_000);
    const whole = new LinearResampler(22_050, 24_000).process(input);
    const streaming = new LinearResampler(22_050, 24_000);
    const parts: number[] = [];
    for (let start = 0, size = 1; start < input.length; start += size, size = (size * 7 + 3) % 997 || 1) {
      parts.push(...streaming.process(input.subarray(start, start + size)));
    }
    expect(Int16Array.from(parts)).toEqual(whole);
  });

  it('interpolates between neighbouring samples', () => {
    const output = new LinearResampler(1, 2).process(Int16Array.from([0, 100, 200]));
    expect([...output]).toEqual([0, 50, 100, 150]);
  });
});
