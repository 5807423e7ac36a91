// Typed reads of a decoded form body, with Stripe's validation errors: unknown parameters are
// refused, integers and booleans must parse, required ones must be present.
import type Stripe from 'stripe';
import type { FormObject, FormValue } from './form-body.js';
import { invalidParameter, missingParameter } from './stripe-error.js';

export class Params {
  constructor(private readonly body: FormObject, allowed: readonly string[]) {
    for (const key of Object.keys(body)) {
      if (key !== 'expand' && !allowed.includes(key)) {
        throw invalidParameter(`Received unknown parameter: ${key}`, key, 'parameter_unknown');
      }
    }
  }

  private raw(name: string): FormValue | undefined {
    return this.body[name];
  }

  string(name: string): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string') throw invalidParameter(`Invalid string: ${name}`, name);
    return value;
  }

  requiredString(name: string): string {
    const value = this.string(name);
    if (value === undefined || value === '') throw missingParameter(name);
    return value;
  }

  integer(name: string): number | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!/^-?\d{1,15}$/.test(value)) throw invalidParameter(`Invalid integer: ${value}`, name, 'parameter_invalid_integer');
    return Number(value);
  }

  boolean(name: string): boolean | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw invalidParameter(`Invalid boolean: ${value}`, name);
    return value === 'true';
  }

  enumeration<T extends string>(name: string, allowed: readonly T[]): T | undefined {
    const value = this.string(name);
    if (value === undefined) return undefined;
    if (!(allowed as readonly string[]).includes(value)) {
      throw invalidParameter(`Invalid ${name}: must be one of ${allowed.join(', ')}`, name);
    }
    return value as T;
  }

  stringArray(name: string): string[] | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    const items = Array.isArray(value) ? value : typeof value === 'object' ? Object.values(value) : [value];
    if (!items.every((item): item is string => typeof item === 'string')) throw invalidParameter(`Invalid array: ${name}`, name);
    return items;
  }

  metadata(name = 'metadata'): Stripe.Metadata {
    const value = this.raw(name);
    if (value === undefined || value === '') return {};
    if (typeof value !== 'object' || Array.isArray(value)) throw invalidParameter(`Invalid object: ${name}`, name);
    const output: Stripe.Metadata = {};
    for (const [key, item] of Object.entries(value)) {
      if (typeof item !== 'string') throw invalidParameter(`Invalid metadata value for ${key}`, `${name}[${key}]`);
      if (key.length > 40 || item.length > 500) throw invalidParameter('Metadata keys are at most 40 characters and values at most 500', `${name}[${key}]`);
      output[key] = item;
    }
    return output;
  }

  expand(): string[] {
    return this.stringArray('expand') ?? [];
  }
}
