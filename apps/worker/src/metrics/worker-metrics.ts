// What the settling side records (the worker, and the embedded process that settles in-process): open
// reservations and their age, the BullMQ settlement queue's depth and lag, jobs applied, reaper voids.
import { openReservations, type SqlClient } from '@voice-router/ledger';
import type { QueuedSettlementGuard } from '@voice-router/settlement';
import { reservationMetrics, settlementQueueMetrics, type Logger, type MetricsRegistry } from '@voice-router/service-kit';

export interface WorkerMetricHooks {
  /** For startReaper (ReaperOptions.onReaped). */
  onReaped?(count: number): void;
  /** For startSettlementWorker (SettlementWorkerOptions.onApplied). */
  onApplied?(action: string, outcome: string): void;
}

/** Registers the scrape-time sources and returns the hooks to hand to the reaper and the queue worker. */
export function workerMetrics(
  registry: MetricsRegistry | undefined, sources: { sql: SqlClient; queue?: QueuedSettlementGuard; logger: Logger },
): WorkerMetricHooks {
  if (!registry) return {};
  const reservations = reservationMetrics(registry, sources.logger);
  reservations.setSource(() => openReservations(sources.sql));
  const queue = settlementQueueMetrics(registry, sources.logger);
  if (sources.queue) queue.setSource(() => sources.queue!.queueCounts());
  return {
    onReaped: (count) => reservations.reaperVoids.inc(count),
    // One lookup per job of a known (action, outcome) pair; the cell itself is a plain number.
    onApplied: (action, outcome) => queue.applied.cell(action, outcome).inc(),
  };
}
