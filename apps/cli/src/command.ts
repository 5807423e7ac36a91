// The shape every command file exports, and small helpers for reading its flags.
import type { ParseArgsConfig } from 'node:util';
import type { CommandContext } from './context.js';
import { UsageError } from './cli-errors.js';

/** node:util's option table (its type is not exported under a name). */
export type ParseArgsOptions = NonNullable<ParseArgsConfig['options']>;

export type OptionValues = Record<string, string | boolean | Array<string | boolean> | undefined>;

export interface CommandInput {
  values: OptionValues;
  positionals: string[];
}

export interface Command {
  /** One or two words: `credits`, `keys create`. */
  name: string;
  summary: string;
  /** The synopsis line after `vr `. */
  synopsis: string;
  /** One line per flag, already formatted for `--help`. */
  help?: string[];
  options: ParseArgsOptions;
  /** How many positional arguments the command takes. */
  positionals?: { min: number; max: number; name?: string };
  run(context: CommandContext, input: CommandInput): Promise<void>;
}

export const JSON_OPTION = { json: { type: 'boolean' } } as const satisfies ParseArgsOptions;
export const JSON_HELP = '--json                 print the server\'s JSON instead of a table';

export function stringValue(values: OptionValues, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A flag that may be given several times. */
export function listValue(values: OptionValues, name: string): string[] {
  const value = values[name];
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  return typeof value === 'string' ? [value] : [];
}

export function integerValue(values: OptionValues, name: string, minimum: number, maximum: number, command: string): number | undefined {
  const text = stringValue(values, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < minimum || value > maximum) {
    throw new UsageError(`--${name} must be a whole number from ${minimum} to ${maximum}, got "${text}"`, command);
  }
  return value;
}
