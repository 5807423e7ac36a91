import { describe, expect, it } from 'vitest';
import { settledRate } from './hot-wallet.js';

describe('the hot wallet warm-up', () => {
  it('settles once two slices in a row agree within a tenth, not before', () => {
    expect(settledRate([])).toBe(false);
    expect(settledRate([3_000])).toBe(false);
    // A router back from idle: a third of its rate, then recovering.
    expect(settledRate([987, 2_100])).toBe(false);
    expect(settledRate([987, 2_100, 2_900])).toBe(false);
    expect(settledRate([987, 2_100, 2_900, 3_050])).toBe(true);
    // Within a tenth of the larger, either way.
    expect(settledRate([3_000, 2_700])).toBe(true);
    expect(settledRate([3_000, 2_699])).toBe(false);
    expect(settledRate([2_700, 3_000])).toBe(true);
  });
});
