import { describe, expect, it } from 'vitest';
import { formatMicros, formatSignedMicros, parseUsdToMicros } from './money.js';

describe('parseUsdToMicros', () => {
  it.each([
    ['12.50', 12_500_000],
    ['0.000001', 1],
    ['0', 0],
    ['5', 5_000_000],
    [' 100.1 ', 100_100_000],
    ['$3.25', 3_250_000],
    ['0.1', 100_000],
    ['9007199254.740991', Number.MAX_SAFE_INTEGER],
  ])('parses %j exactly', (text, micros) => {
    expect(parseUsdToMicros(text)).toEqual({ ok: true, micros });
  });

  it('refuses amounts whose micros pass Number.MAX_SAFE_INTEGER', () => {
    expect(parseUsdToMicros('9007199254.740992').ok).toBe(false);
  });

  it.each(['1.0000001', '-1', 'abc', '', '1e3', '1,000', '.5', '1.', '0x10', 'Infinity', '1.2.3'])('refuses %j', (text) => {
    expect(parseUsdToMicros(text).ok).toBe(false);
  });
});

describe('formatMicros', () => {
  it.each([
    [0, '$0.00'],
    [1, '$0.000001'],
    [1_234_567, '$1.234567'],
    [12_500_000, '$12.50'],
    [-2_000_000, '-$2.00'],
    [1_234_567_890_000, '$1,234,567.89'],
  ])('formats %d as %s', (micros, text) => {
    expect(formatMicros(micros)).toBe(text);
  });

  it('signs positive deltas', () => {
    expect(formatSignedMicros(5_000_000)).toBe('+$5.00');
    expect(formatSignedMicros(-1)).toBe('-$0.000001');
  });
});
