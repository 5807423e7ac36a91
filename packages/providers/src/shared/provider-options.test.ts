// Type checks and warnings for provider_options.

import { describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError } from '../errors.js';
import { readProviderOptions } from './provider-options.js';

const rules = {
  level: { kind: 'number', minimum: 0, maximum: 1 },
  count: { kind: 'integer' },
  flag: { kind: 'boolean' },
  mode: { kind: 'string', allowed: ['a', 'b'] },
  ids: { kind: 'string-array', maxItems: 2 },
} as const;

describe('readProviderOptions', () => {
  it('returns checked values and warns about unknown keys, ignoring nulls', () => {
    expect(readProviderOptions('p', { level: 0.5, count: 3, flag: true, mode: 'a', ids: ['x'], extra: 1, unset: null }, rules)).toEqual({
      values: { level: 0.5, count: 3, flag: true, mode: 'a', ids: ['x'] },
      warnings: ['provider option "extra" ignored: not supported by p', 'provider option "unset" ignored: not supported by p'],
    });
  });

  it.each([{ level: '0.5' }, { level: Number.NaN }, { level: 2 }, { count: 1.5 }, { flag: 1 }, { mode: 'c' }, { ids: [1] }, { ids: ['a', 'b', 'c'] }])(
    'refuses %j',
    (options) => {
      expect(() => readProviderOptions('p', options, rules)).toThrow(InvalidSpeechRequestError);
    },
  );

  it('does not treat inherited properties as known options', () => {
    expect(readProviderOptions('p', { toString: 'x' }, rules).warnings).toHaveLength(1);
  });
});
