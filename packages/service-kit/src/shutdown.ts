// Runs cleanup steps once on SIGINT/SIGTERM, in reverse order of registration, then exits. A stop that
// takes longer than `timeoutMs` (a step waiting on a dead dependency) exits anyway, non-zero, so an
// orchestrator never has to escalate to SIGKILL on its own. Log lines still buffered are written out last
// (drained for up to 2 s when stdout's reader is behind).
import { drainLogs, flushLogs } from './logger.js';

export interface ShutdownOptions {
  /** Upper bound for all steps together. Default 60 s. */
  timeoutMs?: number;
}

export function onShutdown(
  steps: Array<() => Promise<void> | void>, log: (message: string) => void = () => undefined, options: ShutdownOptions = {},
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`received ${signal}, shutting down`);
    const timeoutMs = options.timeoutMs ?? 60_000;
    setTimeout(() => {
      log(`shutdown did not finish within ${timeoutMs} ms; exiting`);
      flushLogs();
      process.exit(1);
    }, timeoutMs).unref();
    for (const step of [...steps].reverse()) {
      try {
        await step();
      } catch {
        // Keep closing the rest; the process is going away anyway.
      }
    }
    await drainLogs();
    flushLogs();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
