// Prices live in data: every model's price has a default in its provider's catalog, and a deployment can
// override any of them with a JSON document (PRICING_FILE, or PRICING_JSON inline). The document is checked
// when the registry starts; anything wrong (bad JSON, a model no provider lists, a negative price) stops the
// start with a message naming the entry, rather than charging a price nobody meant.

import { z } from 'zod';
import type { ModelPricing, ProviderDescriptor } from '../types.js';

/** `{ "<provider>/<model>": { "unit": "character", "microsPerUnit": 12.5 } }`; `unit` defaults to character. */
const PricingOverridesSchema = z.record(
  z.string().regex(/^[^/]+\/.+$/),
  z.strictObject({
    unit: z.literal('character').default('character'),
    microsPerUnit: z.number().nonnegative().max(1_000_000).refine(Number.isFinite, 'must be finite'),
  }),
);

export type PricingOverrides = Record<string, ModelPricing>;

/** Parses and validates an overrides document; `source` names it in errors (a file path or PRICING_JSON). */
export function parsePricingOverrides(text: string, source: string): PricingOverrides {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source}: not valid JSON (${(error as Error).message})`);
  }
  const parsed = PricingOverridesSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : 'document';
    throw new Error(`${source}: ${where}: ${issue.message} (expected {"<provider>/<model_id>": {"microsPerUnit": <micro-dollars per character>}})`);
  }
  return parsed.data;
}

/** Descriptors with the overrides applied; throws when an override names a model no listed provider has. */
export function applyPricingOverrides(descriptors: readonly ProviderDescriptor[], overrides: PricingOverrides | undefined): ProviderDescriptor[] {
  if (!overrides) return [...descriptors];
  const unused = new Set(Object.keys(overrides));
  const priced = descriptors.map((descriptor) => ({
    ...descriptor,
    models: descriptor.models.map((model) => {
      const key = `${descriptor.id}/${model.id}`;
      const override = Object.hasOwn(overrides, key) ? overrides[key] : undefined;
      if (!override) return model;
      unused.delete(key);
      return { ...model, pricing: { unit: override.unit, microsPerUnit: override.microsPerUnit } };
    }),
  }));
  if (unused.size > 0) {
    throw new Error(`pricing overrides name models no provider lists: ${[...unused].join(', ')} (see GET /v1/providers for model ids)`);
  }
  return priced;
}
