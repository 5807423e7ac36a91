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

/**
 * A stream may not outlive the reaper's bound: the reaper would void a reservation whose audio is still
 * flowing. Every app that knows both settings refuses to start when they disagree (zod superRefine).
 */
export function checkStreamBound(
  environment: { STREAM_MAX_DURATION_MS: number; RESERVATION_REAP_AFTER_MS: number }, context: z.RefinementCtx,
): void {
  if (environment.STREAM_MAX_DURATION_MS >= environment.RESERVATION_REAP_AFTER_MS) {
    context.addIssue({
      code: 'custom',
      path: ['STREAM_MAX_DURATION_MS'],
      message: `must be below RESERVATION_REAP_AFTER_MS (${environment.STREAM_MAX_DURATION_MS} >= ${environment.RESERVATION_REAP_AFTER_MS}): `
        + 'the reaper would void the reservations of streams still running',
    });
  }
}
