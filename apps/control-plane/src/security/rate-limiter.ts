// Fixed-window attempt counters kept in this process's memory. With several control-plane replicas
// each keeps its own counts (documented); enough to make guessing passwords and user codes slow.
export interface RateLimiter {
  /** Counts one attempt for `key`; false once the window's budget is spent. */
  attempt(key: string): boolean;
  reset(key: string): void;
}

export function createRateLimiter(options: { limit: number; windowMs: number; now?: () => number }): RateLimiter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const now = options.now ?? Date.now;
  return {
    attempt(key) {
      const time = now();
      if (windows.size > 100_000) {
        for (const [entryKey, entry] of windows) if (entry.resetAt <= time) windows.delete(entryKey);
      }
      const entry = windows.get(key);
      if (!entry || entry.resetAt <= time) {
        windows.set(key, { count: 1, resetAt: time + options.windowMs });
        return true;
      }
      entry.count += 1;
      return entry.count <= options.limit;
    },
    reset(key) {
      windows.delete(key);
    },
  };
}
