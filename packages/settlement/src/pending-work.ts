// Tracks fire-and-forget work so that drain() can wait for everything handed over so far.
export interface PendingWork {
  track(promise: Promise<unknown>): void;
  drain(): Promise<void>;
}

export function createPendingWork(): PendingWork {
  const pending = new Set<Promise<unknown>>();
  return {
    track(promise) {
      const tracked = promise.finally(() => pending.delete(tracked));
      pending.add(tracked);
    },
    async drain() {
      while (pending.size) await Promise.all([...pending]);
    },
  };
}
