// Each app parses its environment once, at start-up, with one zod schema; a bad variable stops the
// process with a message that names it.
import type { z } from 'zod';

export class ConfigurationError extends Error {}

export function parseEnvironment<Schema extends z.ZodType>(appName: string, schema: Schema, environment: NodeJS.ProcessEnv = process.env): z.infer<Schema> {
  // Empty strings mean "not set", as in most shells' `VAR= command`.
  const cleaned = Object.fromEntries(Object.entries(environment).filter(([, value]) => value !== undefined && value !== ''));
  const result = schema.safeParse(cleaned);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  throw new ConfigurationError(`${appName}: invalid configuration\n${problems.join('\n')}`);
}

/** Turns "true"/"false"/"1"/"0" into a boolean (zod's coerce treats any non-empty string as true). */
export function booleanFlag(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (/^(true|1|yes|on)$/i.test(value)) return true;
  if (/^(false|0|no|off)$/i.test(value)) return false;
  return value;
}
