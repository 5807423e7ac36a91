import { describe, expect, it } from 'vitest';
import { formatMicros, parseUsdToMicros } from './money.js';

describe('formatMicros', () => {
  it('shows micro-dollars exactly, with two to six decimals', () => {
    expect(formatMicros(315)).toBe('$0.000315');
    expect(formatMicros(0)).toBe('$0.00');
    expect(formatMicros(5_000_000)).toBe('$5.00');
    expect(formatMicros(1_500_000)).toBe('$1.50');
    expect(formatMicros(1_234_567)).toBe('$1.234567');
    expect(formatMicros(10)).toBe('$0.00001');
  });

  it('handles negatives, strings and amounts past float precision', () => {
    expect(formatMicros(-1_500_000)).toBe('-$1.50');
    expect(formatMicros('42')).toBe('$0.000042');
    expect(formatMicros(Number.MAX_SAFE_INTEGER)).toBe('$9007199254.740991');
    expect(formatMicros(123_456_789_012_345_678n)).toBe('$123456789012.345678');
  });
});

describe('parseUsdToMicros', () => {
  it('parses decimal dollars without floats', () => {
    expect(parseUsdToMicros('1.25')).toBe(1_250_000);
    expect(parseUsdToMicros('$0.000001')).toBe(1);
    expect(parseUsdToMicros('0.1')).toBe(100_000);
    expect(parseUsdToMicros('7')).toBe(7_000_000);
  });

  it('refuses what it would have to round or cannot read', () => {
    expect(() => parseUsdToMicros('0.0000001')).toThrow(/six decimals/);
    expect(() => parseUsdToMicros('-1')).toThrow();
    expect(() => parseUsdToMicros('1e3')).toThrow();
    expect(() => parseUsdToMicros('abc')).toThrow();
    expect(() => parseUsdToMicros('99999999999999')).toThrow(/too large/);
  });
});
