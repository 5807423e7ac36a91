// The attempt limits of sign-in, one table (README "Accounts"). Log-in and user-code limits count
// failures only: an attempt is taken up front (so parallel guesses cannot overshoot) and given back
// when it succeeds.
import type { RateLimiter, RateLimitStore } from './rate-limiter.js';

const MINUTE = 60_000;

export const ATTEMPT_LIMITS = {
  /** Failed log-ins per email (reset by a successful one). */
  loginFailuresPerEmail: { limit: 10, windowMs: 15 * MINUTE },
  /** Failed log-ins per client address (password spraying across emails). */
  loginFailuresPerAddress: { limit: 100, windowMs: 15 * MINUTE },
  /** Sign-up attempts per client address. */
  signupsPerAddress: { limit: 20, windowMs: 60 * MINUTE },
  /** Wrong user codes per signed-in user, on the device page's look-up and approval steps together. */
  wrongUserCodesPerUser: { limit: 10, windowMs: 15 * MINUTE },
  /** Device codes started per client address (`vr login`). */
  deviceCodesPerAddress: { limit: 60, windowMs: 60 * MINUTE },
} as const;

export type AttemptLimiters = Record<keyof typeof ATTEMPT_LIMITS, RateLimiter>;

export function createAttemptLimiters(store: RateLimitStore): AttemptLimiters {
  const entries = Object.entries(ATTEMPT_LIMITS).map(([name, limits]) => [name, store.limiter(name, limits)]);
  return Object.fromEntries(entries) as AttemptLimiters;
}
