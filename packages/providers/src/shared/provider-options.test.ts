// provider_options: validated against each provider's zod schema, refused by key, listed for the catalog.

import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { InvalidSpeechRequestError } from '../errors.js';
import { describeProviderOptions, NO_PROVIDER_OPTIONS, readProviderOptions, type ProviderOptionsSchema } from './provider-options.js';

const schema = z.object({
  level: z.number().min(0).max(1).optional().describe('How much'),
  count: z.int().optional(),
  flag: z.boolean().optional(),
  mode: z.enum(['a', 'b']).optional(),
  ids: z.array(z.string()).max(2).optional(),
});

function refusal(options: Record<string, unknown>, against: ProviderOptionsSchema = schema): string {
  try {
    readProviderOptions('p', options, against);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidSpeechRequestError);
    return (error as InvalidSpeechRequestError).details;
  }
  throw new Error('expected a refusal');
}

describe('readProviderOptions', () => {
  it('returns checked values, ignoring nulls', () => {
    expect(readProviderOptions('p', { level: 0.5, count: 3, flag: true, mode: 'a', ids: ['x'], ids2: undefined } as never, schema.extend({ ids2: z.string().optional() }))).toEqual({
      values: { level: 0.5, count: 3, flag: true, mode: 'a', ids: ['x'] },
      warnings: [],
    });
    expect(readProviderOptions('p', { level: null }, schema).values).toEqual({});
  });

  it('refuses an unknown key, naming it and the accepted ones', () => {
    expect(refusal({ extra: 1 })).toBe('provider option "extra" is not accepted by p (accepted: level, count, flag, mode, ids)');
    expect(refusal({ speed: 1 }, NO_PROVIDER_OPTIONS)).toBe('provider option "speed" is not accepted: p takes no provider options');
  });

  it.each([
    [{ level: '0.5' }, 'level'], [{ level: Number.NaN }, 'level'], [{ level: 2 }, 'level'], [{ count: 1.5 }, 'count'],
    [{ flag: 1 }, 'flag'], [{ mode: 'c' }, 'mode'], [{ ids: [1] }, 'ids'], [{ ids: ['a', 'b', 'c'] }, 'ids'],
  ])('refuses %j naming the key', (options, key) => {
    expect(refusal(options)).toMatch(new RegExp(`^provider option "${key}" is invalid: `));
  });

  it('answers no options without the schema only when the schema takes {} unchanged', () => {
    const safeParse = vi.spyOn(schema, 'safeParse');
    for (let round = 0; round < 3; round += 1) expect(readProviderOptions('p', {}, schema)).toEqual({ values: {}, warnings: [] });
    // Once, to learn that the schema takes {} unchanged; never again for it.
    expect(safeParse.mock.calls.length).toBeLessThanOrEqual(1);
    safeParse.mockRestore();
    // A schema that fills a default still gives it for an empty object, every time.
    const withDefault = z.object({ tone: z.string().default('warm'), level: z.number().optional() });
    for (let round = 0; round < 2; round += 1) expect(readProviderOptions('p', {}, withDefault).values).toEqual({ tone: 'warm' });
    // Each call gets its own objects, so no caller can change another's.
    const first = readProviderOptions('p', {}, schema);
    first.values.x = 1;
    expect(readProviderOptions('p', {}, schema).values).toEqual({});
  });

  it('does not treat inherited properties as known options', () => {
    expect(refusal({ toString: 'x' })).toContain('"toString" is not accepted');
  });
});

describe('describeProviderOptions', () => {
  it('lists every key with its type and bounds', () => {
    expect(describeProviderOptions(schema)).toEqual([
      { name: 'level', type: 'number', description: 'How much', minimum: 0, maximum: 1 },
      { name: 'count', type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
      { name: 'flag', type: 'boolean' },
      { name: 'mode', type: 'string', enum: ['a', 'b'] },
      { name: 'ids', type: 'array<string>', maxItems: 2 },
    ]);
  });
});
