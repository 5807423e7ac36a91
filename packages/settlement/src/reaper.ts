// Periodically voids reservations still pending past a bound (their process died mid-request).
// Safe to run in every process at once: each void is conditional on the reservation being pending.
import { reapReservations, type SqlClient } from '@voice-router/ledger';
import { silentLogger, type SettlementLogger } from './settler.js';

export interface ReaperOptions {
  sql: SqlClient;
  /** Must exceed the longest a request may stream (the data plane enforces a maximum). */
  olderThanMs: number;
  intervalMs: number;
  logger?: SettlementLogger & { info?(message: string, fields?: Record<string, unknown>): void };
}

export function startReaper(options: ReaperOptions): { stop(): void; runOnce(): Promise<number> } {
  const logger = options.logger ?? silentLogger;
  let running = false;
  const runOnce = async () => {
    if (running) return 0;
    running = true;
    try {
      const reaped = await reapReservations(options.sql, { olderThanMs: options.olderThanMs });
      if (reaped > 0) logger.warn('reaped stale reservations', { reaped });
      return reaped;
    } catch (error) {
      logger.error('reaper run failed', { error });
      return 0;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
