// Keeps the catalog fresh in the background. A refresher (the embedded process, or the worker when scaled out)
// calls each configured provider's voice API every `voiceIntervalMs` and, when enabled, runs a smoke synthesis
// every `smokeTestIntervalMs`; with a store it claims each task first, so several workers make one call per
// interval, and stores the results. A follower (a scaled-out data plane) only reads the store.

import type { ProviderRegistry } from '../registry.js';
import type { CatalogState } from './catalog-state.js';
import type { CatalogLogger, CatalogStore } from './catalog-store.js';
import { runSmokeTest, type SmokeTestOutcome } from './smoke-test.js';
import { VoiceListingError } from './voice-listing.js';

export interface VoiceRefreshOutcome {
  providerId: string;
  /** `skipped`: another process claimed this refresh within the interval. */
  result: 'refreshed' | 'failed' | 'skipped';
  voices?: number;
  failure?: string;
}

export interface RefreshSettings {
  registry: ProviderRegistry;
  state: CatalogState;
  store?: CatalogStore;
  logger: CatalogLogger;
  /** Deadline for one provider's whole listing (every page). */
  listingTimeoutMs: number;
  /** Only used for claims: a refresh claimed less than this ago elsewhere is not repeated. 0 = always. */
  claimIntervalMs?: number;
}

/** Refreshes every live-listing provider once; a failure keeps that provider's last good list. */
export async function refreshVoiceCatalog(settings: RefreshSettings): Promise<VoiceRefreshOutcome[]> {
  const { registry, state, store, logger } = settings;
  return Promise.all(
    registry.liveVoiceProviders().map(async (providerId): Promise<VoiceRefreshOutcome> => {
      try {
        if (store && !(await store.claim(providerId, 'voices', settings.claimIntervalMs ?? 0))) return { providerId, result: 'skipped' };
        const voices = await registry.listVoices(providerId, { signal: AbortSignal.timeout(settings.listingTimeoutMs) });
        const refreshedAt = new Date();
        state.setVoices(providerId, voices, refreshedAt);
        await store?.saveVoices(providerId, voices, refreshedAt);
        return { providerId, result: 'refreshed', voices: voices.length };
      } catch (error) {
        const failure = error instanceof VoiceListingError ? error.failure : 'internal_error';
        // Only router-written words: the status code and category, never the provider's body.
        logger.warn('voice catalog refresh failed; keeping the last good list', {
          provider: providerId, failure, status: error instanceof VoiceListingError ? error.statusCode : undefined,
        });
        await store?.recordVoicesFailure(providerId, failure).catch(() => undefined);
        return { providerId, result: 'failed', failure };
      }
    }),
  );
}

/** Smoke-tests the given providers (default: every configured one) and stores the results. */
export async function smokeTestProviders(
  settings: RefreshSettings & { providerIds?: string[]; timeoutMs: number },
): Promise<Array<SmokeTestOutcome | { providerId: string; ok: 'skipped' }>> {
  const { registry, state, store } = settings;
  const ids = settings.providerIds ?? registry.status().filter((status) => registry.isAvailable(status.id)).map((status) => status.id);
  const outcomes = [];
  // One at a time: a smoke test is a real, paid request; there is no hurry.
  for (const providerId of ids) {
    if (store && !(await store.claim(providerId, 'smoke_test', settings.claimIntervalMs ?? 0))) {
      outcomes.push({ providerId, ok: 'skipped' as const });
      continue;
    }
    const outcome = await runSmokeTest(registry, state, providerId, { timeoutMs: settings.timeoutMs });
    await store?.recordSmokeTest(providerId, outcome.ok ? { ok: true, at: outcome.at } : { ok: false, failure: outcome.failure });
    if (!outcome.ok) settings.logger.warn('smoke test failed', { provider: providerId, failure: outcome.failure });
    outcomes.push(outcome);
  }
  return outcomes;
}

export interface CatalogRefresher {
  /** Resolves when the first voice refresh finished (the embedded process waits for nothing; tests do). */
  ready: Promise<void>;
  refreshNow(): Promise<VoiceRefreshOutcome[]>;
  stop(): Promise<void>;
}

export function startCatalogRefresher(
  settings: RefreshSettings & { voiceIntervalMs: number; smokeTestIntervalMs: number; smokeTestTimeoutMs: number },
): CatalogRefresher {
  // Claims expire a little before the next tick, so timer jitter never skips a whole interval.
  const voiceClaim = Math.floor(settings.voiceIntervalMs * 0.9);
  const smokeClaim = Math.floor(settings.smokeTestIntervalMs * 0.9);
  let running: Promise<unknown> = Promise.resolve();
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = running.then(work, work);
    running = next.catch(() => undefined);
    return next;
  };
  const refreshNow = () => serial(() => refreshVoiceCatalog({ ...settings, claimIntervalMs: voiceClaim }));
  const smokeNow = () =>
    serial(() => smokeTestProviders({ ...settings, claimIntervalMs: smokeClaim, timeoutMs: settings.smokeTestTimeoutMs }));
  const report = (error: unknown) => settings.logger.warn('catalog refresh failed', { error: (error as Error).name });
  const ready = refreshNow().then(() => undefined, report);
  const voiceTimer = setInterval(() => void refreshNow().catch(report), settings.voiceIntervalMs);
  voiceTimer.unref();
  const smokeTimer = settings.smokeTestIntervalMs > 0
    ? setInterval(() => void smokeNow().catch(report), settings.smokeTestIntervalMs)
    : undefined;
  smokeTimer?.unref();
  return {
    ready,
    refreshNow,
    async stop() {
      clearInterval(voiceTimer);
      if (smokeTimer) clearInterval(smokeTimer);
      await running;
    },
  };
}

export interface CatalogFollower {
  syncNow(): Promise<void>;
  stop(): Promise<void>;
}

/** A data plane's view of what the refreshers stored: read at start, then every `intervalMs`. */
export async function startCatalogFollower(settings: { state: CatalogState; store: CatalogStore; intervalMs: number; logger: CatalogLogger }): Promise<CatalogFollower> {
  let seen: Date | undefined;
  let running: Promise<void> = Promise.resolve();
  const sync = async () => {
    // Overlap the window a little: a row committed late with an earlier updated_at is still picked up.
    const since = seen ? new Date(seen.getTime() - 60_000) : undefined;
    const entries = await settings.store.load(since);
    settings.state.applyStored(entries);
    for (const entry of entries) if (!seen || entry.updatedAt > seen) seen = entry.updatedAt;
  };
  const syncNow = () => (running = running.then(sync, sync));
  await syncNow().catch((error: unknown) => settings.logger.warn('catalog sync failed', { error: (error as Error).name }));
  const timer = setInterval(() => {
    syncNow().catch((error: unknown) => settings.logger.warn('catalog sync failed', { error: (error as Error).name }));
  }, settings.intervalMs);
  timer.unref();
  return {
    syncNow,
    async stop() {
      clearInterval(timer);
      await running.catch(() => undefined);
    },
  };
}
