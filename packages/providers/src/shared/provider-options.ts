// provider_options are declared per provider as a zod object of optional fields. A key the provider does not
// declare, or a value its schema refuses, is the client's error (400 invalid_body naming the key): silently
// dropping an option the client thought it set would make the audio differ without anyone knowing.

import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';

/** A provider's accepted provider_options: every field optional. */
export type ProviderOptionsSchema = z.ZodObject;

export interface ReadProviderOptionsResult {
  values: Record<string, unknown>;
  /** Kept for mappings that add their own warnings (e.g. an option the chosen model ignores). */
  warnings: string[];
}

/** What `/v1/providers` lists for one accepted option (a JSON-schema subset). */
export interface ProviderOptionDescriptor {
  name: string;
  type: string;
  description?: string;
  minimum?: number;
  maximum?: number;
  enum?: string[];
  maxLength?: number;
  maxItems?: number;
}

/** No options at all: any key is refused. */
export const NO_PROVIDER_OPTIONS: ProviderOptionsSchema = z.object({});

/**
 * Validates `options` against the provider's schema. null and undefined count as "not given", so clients can
 * send sparse objects. Throws InvalidSpeechRequestError naming the first offending key.
 */
export function readProviderOptions(provider: string, options: Record<string, unknown>, schema: ProviderOptionsSchema): ReadProviderOptionsResult {
  // Most requests give no options, and each is read up to three times on its way upstream (the plan, the
  // registry, the adapter): an empty object is answered without the schema when the schema itself takes
  // {} unchanged (no defaults), which is decided once per schema.
  if (isEmpty(options) && takesEmptyUnchanged(schema)) return { values: {}, warnings: [] };
  const given: Record<string, unknown> = {};
  const accepted = Object.keys(schema.shape);
  for (const [name, value] of Object.entries(options)) {
    if (!Object.hasOwn(schema.shape, name)) {
      throw new InvalidSpeechRequestError(
        accepted.length === 0
          ? `provider option ${quoteName(name)} is not accepted: ${provider} takes no provider options`
          : `provider option ${quoteName(name)} is not accepted by ${provider} (accepted: ${accepted.join(', ')})`,
      );
    }
    if (value !== undefined && value !== null) given[name] = value;
  }
  const parsed = schema.safeParse(given);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = typeof issue.path[0] === 'string' ? issue.path[0] : '?';
    throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} is invalid: ${issue.message}`);
  }
  const values = Object.fromEntries(Object.entries(parsed.data).filter(([, value]) => value !== undefined));
  return { values, warnings: [] };
}

function isEmpty(options: Record<string, unknown>): boolean {
  for (const name in options) if (Object.hasOwn(options, name)) return false;
  return true;
}

const emptyUnchanged = new WeakMap<ProviderOptionsSchema, boolean>();
function takesEmptyUnchanged(schema: ProviderOptionsSchema): boolean {
  let answer = emptyUnchanged.get(schema);
  if (answer === undefined) {
    const parsed = schema.safeParse({});
    answer = parsed.success && Object.values(parsed.data).every((value) => value === undefined);
    emptyUnchanged.set(schema, answer);
  }
  return answer;
}

const LISTED_KEYWORDS = ['description', 'minimum', 'maximum', 'enum', 'maxLength', 'maxItems'] as const;

/** The accepted options as `/v1/providers` lists them, derived from the schema so the two cannot disagree. */
export function describeProviderOptions(schema: ProviderOptionsSchema): ProviderOptionDescriptor[] {
  return Object.entries(schema.shape).map(([name, field]) => {
    const json = z.toJSONSchema(field as z.ZodType, { unrepresentable: 'any' }) as Record<string, unknown>;
    const descriptor: ProviderOptionDescriptor = { name, type: typeof json.type === 'string' ? json.type : 'any' };
    if (json.type === 'array' && typeof (json.items as { type?: unknown } | undefined)?.type === 'string') {
      descriptor.type = `array<${(json.items as { type: string }).type}>`;
    }
    for (const keyword of LISTED_KEYWORDS) {
      if (json[keyword] !== undefined) (descriptor as unknown as Record<string, unknown>)[keyword] = json[keyword];
    }
    return descriptor;
  });
}
