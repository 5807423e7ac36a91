// The one interface the data plane enforces per-key rate and concurrency limits through. Two
// implementations: in process memory (embedded, one process) and Redis (shared by every replica).

/** A key's effective limits: its own values, or the deployment defaults where it has none. */
export interface KeyLimits {
  /** Requests per window (RATE_WINDOW_MS) across every replica. */
  rateLimitPerMinute: number;
  /** Speech streams open at once across every replica. */
  maxConcurrency: number;
}

/**
 * The rate window: fixed, 60 s long, starting with the first request a key makes after its previous
 * window ended (rate-limiter-flexible's fixed window; the in-memory limiter keeps the same rule).
 */
export const RATE_WINDOW_MS = 60_000;

export type LimitRefusal =
  /** `retryAfterSeconds`: whole seconds until the window resets (rounded up, at least 1). */
  | { kind: 'rate'; limit: number; retryAfterSeconds: number }
  | { kind: 'concurrency'; limit: number };

/** One of a key's stream slots. release() frees it at once; calling it again does nothing. */
export interface StreamSlot {
  release(): void;
}

export type StreamAdmission = { ok: true; slot: StreamSlot } | { ok: false; refusal: LimitRefusal };

export interface KeyLimiter {
  /** Counts one request against the key's rate; the refusal when the window's budget is spent. */
  countRequest(keyId: string, limits: KeyLimits): Promise<LimitRefusal | undefined>;
  /**
   * Counts one request against the rate and takes one of the key's stream slots, in one step (at most
   * one round trip on Redis, none from a grant). A rate refusal wins over a concurrency refusal (it is
   * the hard one); a refused request holds no slot. Every request counts toward the rate, refused ones included.
   */
  openStream(keyId: string, limits: KeyLimits): Promise<StreamAdmission>;
  /** Stops timers and connections. Slots still held are not released (on Redis they expire). */
  close(): Promise<void>;
}

export function retryAfterSeconds(msBeforeReset: number): number {
  return Math.max(1, Math.ceil(msBeforeReset / 1000));
}
