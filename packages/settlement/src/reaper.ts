// Periodically voids reservations still pending past a bound (their process died mid-request).
// Safe to run in every process at once: each void is conditional on the reservation being pending.
// A reservation whose settlement is still on its way (held by a settler in this process, or queued
// in BullMQ) is never reaped: the guards say which, and if one cannot tell, nothing is voided.
import { reapReservations, type SqlClient } from '@voice-router/ledger';
import { silentLogger, type SettlementGuard, type SettlementLogger } from './settler.js';

export interface ReaperOptions {
  sql: SqlClient;
  /** Must exceed the longest a request may stream (the data plane enforces a maximum). */
  olderThanMs: number;
  intervalMs: number;
  /** Who may still be settling a stale reservation: this process's settler, the BullMQ queue. */
  guards?: SettlementGuard[];
  logger?: SettlementLogger & { info?(message: string, fields?: Record<string, unknown>): void };
  /** Told how many reservations each run voided (metrics). */
  onReaped?(count: number): void;
}

export function startReaper(options: ReaperOptions): { stop(): void; runOnce(): Promise<number> } {
  const logger = options.logger ?? silentLogger;
  const guards = options.guards ?? [];
  let running = false;
  const spare = async (reservationIds: string[]) => {
    const spared = new Set<string>();
    for (const guard of guards) for (const id of await guard.inFlight(reservationIds)) spared.add(id);
    if (spared.size > 0) options.logger?.info?.('stale reservations left alone: their settlement is still on its way', { count: spared.size });
    return spared;
  };
  const runOnce = async () => {
    if (running) return 0;
    running = true;
    try {
      const reaped = await reapReservations(options.sql, { olderThanMs: options.olderThanMs, spare });
      if (reaped > 0) {
        logger.warn('reaped stale reservations', { reaped });
        options.onReaped?.(reaped);
      }
      return reaped;
    } catch (error) {
      logger.error('reaper run failed; nothing was voided this round', { error });
      return 0;
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runOnce(), options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer), runOnce };
}
