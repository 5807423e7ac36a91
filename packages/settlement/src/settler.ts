// How the data plane ends a reservation. The request path only records the decision (commit or
// void) and moves on; a Settler makes it durable: in-process in the embedded mode, via BullMQ when
// scaled out. If both fail, the reaper voids the reservation later, so none is ever lost.
export interface SettlementJob {
  action: 'commit' | 'void';
  reservationId: string;
  /** For voids: the error code that caused it (kept for usage reports). */
  errorCode?: string;
  metadata?: Record<string, unknown>;
}

export interface Settler {
  /** Never throws and never blocks the caller on the database or Redis. */
  settle(job: SettlementJob): void;
  /** Resolves when everything handed to settle() so far is durable. */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export interface SettlementLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

export const silentLogger: SettlementLogger = { warn: () => undefined, error: () => undefined };
