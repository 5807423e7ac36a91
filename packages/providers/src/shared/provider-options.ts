// Type-checks `provider_options` against a provider's table of known keys: wrong types are the client's
// error (400), unknown keys only produce warnings, as the AI SDK does for unsupported settings.

import { InvalidSpeechRequestError, quoteName } from '../errors.js';

export type ProviderOptionRule =
  | { kind: 'number'; minimum?: number; maximum?: number }
  | { kind: 'integer'; minimum?: number; maximum?: number }
  | { kind: 'boolean' }
  | { kind: 'string'; allowed?: readonly string[]; maxLength?: number }
  | { kind: 'string-array'; maxItems?: number };

export interface ReadProviderOptionsResult {
  values: Record<string, unknown>;
  warnings: string[];
}

function checkNumber(name: string, value: unknown, rule: { minimum?: number; maximum?: number }, integer: boolean): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isInteger(value))) {
    throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} must be ${integer ? 'an integer' : 'a number'}`);
  }
  if ((rule.minimum !== undefined && value < rule.minimum) || (rule.maximum !== undefined && value > rule.maximum)) {
    throw new InvalidSpeechRequestError(
      `provider option ${quoteName(name)} must be between ${rule.minimum ?? '-∞'} and ${rule.maximum ?? '∞'}`,
    );
  }
  return value;
}

function checkValue(name: string, value: unknown, rule: ProviderOptionRule): unknown {
  switch (rule.kind) {
    case 'number':
      return checkNumber(name, value, rule, false);
    case 'integer':
      return checkNumber(name, value, rule, true);
    case 'boolean':
      if (typeof value !== 'boolean') throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} must be a boolean`);
      return value;
    case 'string':
      if (typeof value !== 'string') throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} must be a string`);
      if (rule.allowed && !rule.allowed.includes(value)) {
        throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} must be one of ${rule.allowed.join(', ')}`);
      }
      if (rule.maxLength !== undefined && value.length > rule.maxLength) {
        throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} is longer than ${rule.maxLength} characters`);
      }
      return value;
    case 'string-array':
      if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
        throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} must be an array of strings`);
      }
      if (rule.maxItems !== undefined && value.length > rule.maxItems) {
        throw new InvalidSpeechRequestError(`provider option ${quoteName(name)} accepts at most ${rule.maxItems} items`);
      }
      return value;
  }
}

/** null and undefined count as "not given", so clients can send sparse objects. */
export function readProviderOptions(
  provider: string,
  options: Record<string, unknown>,
  rules: Record<string, ProviderOptionRule>,
): ReadProviderOptionsResult {
  const values: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    const rule = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (!rule) {
      warnings.push(`provider option ${quoteName(name)} ignored: not supported by ${provider}`);
      continue;
    }
    if (value === undefined || value === null) continue;
    values[name] = checkValue(name, value, rule);
  }
  return { values, warnings };
}
