// Per-deployment prices: parsed strictly, applied over the catalog defaults, refused when they name nothing.

import { describe, expect, it } from 'vitest';
import { providerModules } from '../provider-list.js';
import { applyPricingOverrides, parsePricingOverrides } from './pricing-overrides.js';

const catalogs = providerModules.map((module) => module.descriptor);
const priceOf = (descriptors: ReturnType<typeof applyPricingOverrides>, provider: string, model: string) =>
  descriptors.find((descriptor) => descriptor.id === provider)!.models.find((candidate) => candidate.id === model)!.pricing;

describe('pricing overrides', () => {
  it('replaces the named models\' prices and keeps every other default', () => {
    const overrides = parsePricingOverrides('{"openai/tts-1": {"microsPerUnit": 12.5}, "elevenlabs/eleven_v3": {"unit": "character", "microsPerUnit": 0}}', 'test');
    const priced = applyPricingOverrides(catalogs, overrides);
    expect(priceOf(priced, 'openai', 'tts-1')).toEqual({ unit: 'character', microsPerUnit: 12.5 });
    expect(priceOf(priced, 'elevenlabs', 'eleven_v3')).toEqual({ unit: 'character', microsPerUnit: 0 });
    expect(priceOf(priced, 'openai', 'tts-1-hd')).toEqual(priceOf(catalogs, 'openai', 'tts-1-hd'));
    // The catalogs themselves are untouched.
    expect(priceOf(catalogs, 'openai', 'tts-1').microsPerUnit).toBe(15);
  });

  it.each([
    ['not json', 'test: not valid JSON'],
    ['[]', 'test: document: '],
    ['{"tts-1": {"microsPerUnit": 1}}', 'test: tts-1: Invalid key in record'],
    ['{"openai/tts-1": {"microsPerUnit": -1}}', 'test: openai/tts-1.microsPerUnit: '],
    ['{"openai/tts-1": {"microsPerUnit": "15"}}', 'test: openai/tts-1.microsPerUnit: '],
    ['{"openai/tts-1": {"microsPerUnit": 1, "currency": "EUR"}}', 'test: openai/tts-1: '],
    ['{"openai/tts-1": {"unit": "second", "microsPerUnit": 1}}', 'test: openai/tts-1.unit: '],
  ])('refuses %s with a message naming the entry', (text, message) => {
    expect(() => parsePricingOverrides(text, 'test')).toThrow(message);
  });

  it('refuses an override for a model no provider lists', () => {
    const overrides = parsePricingOverrides('{"openai/tts-9": {"microsPerUnit": 1}}', 'test');
    expect(() => applyPricingOverrides(catalogs, overrides)).toThrow('pricing overrides name models no provider lists: openai/tts-9');
  });
});
