// Limits kept in this process (the embedded mode has one process): a Map lookup per request.
import { RATE_WINDOW_MS, retryAfterSeconds, type KeyLimiter, type KeyLimits, type LimitRefusal, type StreamAdmission } from './key-limiter.js';

interface RateWindow {
  count: number;
  resetAt: number;
}

export interface MemoryKeyLimiterOptions {
  now?: () => number;
}

export function createMemoryKeyLimiter(options: MemoryKeyLimiterOptions = {}): KeyLimiter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, RateWindow>();
  const openStreams = new Map<string, number>();
  // Windows of keys that went quiet would otherwise stay forever; one sweep per window is enough.
  const sweeper = setInterval(() => {
    const time = now();
    for (const [keyId, window] of windows) if (window.resetAt <= time) windows.delete(keyId);
  }, RATE_WINDOW_MS);
  sweeper.unref();

  function count(keyId: string, limits: KeyLimits): LimitRefusal | undefined {
    const time = now();
    let window = windows.get(keyId);
    if (!window || window.resetAt <= time) {
      window = { count: 0, resetAt: time + RATE_WINDOW_MS };
      windows.set(keyId, window);
    }
    window.count += 1;
    if (window.count <= limits.rateLimitPerMinute) return undefined;
    return { kind: 'rate', limit: limits.rateLimitPerMinute, retryAfterSeconds: retryAfterSeconds(window.resetAt - time) };
  }

  function slot(keyId: string) {
    let held = true;
    return {
      release() {
        if (!held) return;
        held = false;
        const open = (openStreams.get(keyId) ?? 1) - 1;
        if (open > 0) openStreams.set(keyId, open);
        else openStreams.delete(keyId);
      },
    };
  }

  return {
    countRequest(keyId, limits) {
      return Promise.resolve(count(keyId, limits));
    },
    openStream(keyId, limits): Promise<StreamAdmission> {
      const refusal = count(keyId, limits);
      if (refusal) return Promise.resolve({ ok: false, refusal });
      const open = openStreams.get(keyId) ?? 0;
      if (open >= limits.maxConcurrency) {
        return Promise.resolve({ ok: false, refusal: { kind: 'concurrency', limit: limits.maxConcurrency } });
      }
      openStreams.set(keyId, open + 1);
      return Promise.resolve({ ok: true, slot: slot(keyId) });
    },
    async close() {
      clearInterval(sweeper);
    },
  };
}
