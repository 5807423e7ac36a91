import { describe, expect, it } from 'vitest';
import { UsageError } from '../cli-errors.js';
import { topUpCents } from './billing-topup.js';

describe('vr billing topup --amount', () => {
  it('turns dollars into cents without floats, within $10 to $1,000', () => {
    expect(topUpCents('10')).toBe(1000);
    expect(topUpCents('25.50')).toBe(2550);
    expect(topUpCents('$1000')).toBe(100_000);
    for (const bad of ['9.99', '1000.01', '25.505', 'ten', undefined]) expect(() => topUpCents(bad)).toThrow(UsageError);
  });
});
