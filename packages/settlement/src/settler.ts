// How the data plane ends a reservation. The request path only records the decision (commit or
// void) and moves on; a Settler makes it durable: in-process in the embedded mode, via BullMQ when
// scaled out. A decided settlement always wins over the reaper: the reaper asks every guard
// (SettlementGuard) which stale reservations are still on their way and leaves those alone.
import type { AllowancePayment } from '@voice-router/ledger';
export interface SettlementJob {
  action: 'commit' | 'void';
  reservationId: string;
  /**
   * The reservation's account. The worker writes the settlements of different accounts in parallel
   * partitions by it (settlement-applier.ts); jobs from older producers lack it and go to the first.
   */
  accountId?: string;
  /** For voids: the error code that caused it (kept for usage reports). */
  errorCode?: string;
  metadata?: Record<string, unknown>;
  /**
   * Set when the request was paid from an allowance (it has no reservation row; its ledger row is all
   * it writes): what the ledger needs to write it (settleAllowanceSpends).
   */
  allowance?: AllowancePayment;
}

/**
 * What one BullMQ job carries: the settlements a data plane decided within one short window, so one
 * Redis round trip (and one job for the worker) covers many requests. Jobs queued by an older version
 * carry a single SettlementJob; the worker and the reaper's guard read both shapes.
 */
export interface SettlementBatch {
  settlements: SettlementJob[];
}

export type QueuedSettlement = SettlementJob | SettlementBatch;

export function settlementsOf(data: QueuedSettlement): SettlementJob[] {
  return 'settlements' in data ? data.settlements : [data];
}

export interface DrainResult {
  /** Settlements still not durable when the bound ran out (logged, left to the reaper). */
  abandoned: number;
}

/** Knows which reservations have a settlement decided but not yet written. */
export interface SettlementGuard {
  /**
   * Of these reservation ids, those whose settlement is still on its way (the reaper must not void
   * them), and the allowances a request still on its way was paid from. Rejects when it cannot tell,
   * and the reaper then voids nothing this round.
   */
  inFlight(reservationIds: readonly string[]): Promise<ReadonlySet<string>>;
}

export interface Settler extends SettlementGuard {
  /**
   * Never throws and never blocks the caller on the database or Redis. The settler keeps `job` (it is queued
   * as given): the caller hands it over and does not change it afterwards.
   */
  settle(job: SettlementJob): void;
  /**
   * Resolves when everything handed to settle() so far is durable, or when the bound (default: the
   * settler's drainTimeoutMs) runs out; then it logs each abandoned reservation and says how many.
   */
  drain(options?: { timeoutMs?: number }): Promise<DrainResult>;
  /** Drains (bounded), stops retrying what is left, and releases connections. */
  close(options?: { timeoutMs?: number }): Promise<DrainResult>;
  /** Whether what settlement depends on beyond the database (Redis) answers; readiness probes ask. */
  dependenciesReachable(): Promise<boolean>;
  /** What this process holds right now (metrics): settlements decided and not yet durable, and the oldest one's age. */
  backlog(): { pending: number; oldestAgeMs: number };
}

export interface SettlementLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: SettlementLogger = { warn: () => undefined, error: () => undefined };

/** How long one settlement is retried against a failing database, and how fast. */
export interface RetryPolicy {
  /** Stop retrying a settlement this long after its first attempt (then the reaper is the last resort). */
  windowMs: number;
  initialDelayMs: number;
  /** Exponential backoff is capped here, so a recovered database is used within this delay. */
  maxDelayMs: number;
}

/** Outlasts a PostgreSQL restart or fail-over (tens of seconds) with room to spare. */
export const DEFAULT_RETRY: RetryPolicy = { windowMs: 120_000, initialDelayMs: 50, maxDelayMs: 5_000 };

export interface SettlerLimits {
  retry?: Partial<RetryPolicy>;
  /** Most settlements held in memory at once (waiting for the database or Redis); past it, see README. */
  maxPending?: number;
  /** Default bound of drain() and close(). */
  drainTimeoutMs?: number;
}

export const DEFAULT_MAX_PENDING = 100_000;
export const DEFAULT_DRAIN_TIMEOUT_MS = 20_000;
