import { describe, expect, it } from 'vitest';
import { parseTopUpAmount } from './billing-routes.js';

describe('the top-up amount typed into the Billing page', () => {
  it('is dollars turned into whole cents, from $10 to $1,000', () => {
    expect(parseTopUpAmount('10')).toEqual({ ok: true, cents: 1000 });
    expect(parseTopUpAmount('$25.5')).toEqual({ ok: true, cents: 2550 });
    expect(parseTopUpAmount(' 1000.00 ')).toEqual({ ok: true, cents: 100_000 });
    expect(parseTopUpAmount('9.99')).toMatchObject({ ok: false, message: 'Enter an amount from $10.00 to $1,000.00.' });
    expect(parseTopUpAmount('1000.01')).toMatchObject({ ok: false });
    expect(parseTopUpAmount('10.001')).toMatchObject({ ok: false, message: 'Use whole cents (at most two decimals).' });
    expect(parseTopUpAmount('ten')).toMatchObject({ ok: false });
  });
});
