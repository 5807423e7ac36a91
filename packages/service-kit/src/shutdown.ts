// Runs cleanup steps once on SIGINT/SIGTERM, in reverse order of registration, then exits.
export function onShutdown(steps: Array<() => Promise<void> | void>, log: (message: string) => void = () => undefined): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log(`received ${signal}, shutting down`);
    for (const step of [...steps].reverse()) {
      try {
        await step();
      } catch {
        // Keep closing the rest; the process is going away anyway.
      }
    }
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));
}
