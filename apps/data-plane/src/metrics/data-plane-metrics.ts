// What the data plane records, on the process's Prometheus registry (METRICS_PORT), or nothing at all
// when metrics are off (METRICS_ENABLED=false). Every label child is created once and cached, so a
// request costs a couple of map lookups and an increment; per-chunk counters are plain numbers that the
// registry reads at scrape time.
import {
  allowanceMetrics, type AllowanceStats, type CountCell, httpMetrics, type ObserveCell, limitMetrics, serverInfoMetric, settlerMetrics, speechMetrics, upstreamMetrics,
  type BreakerStateName, type LimitRefusalKind, type MetricsRegistry, type SpeechStreamCounters,
} from '@voice-router/service-kit';
import type { ProviderRegistry, UpstreamObserver } from '@voice-router/providers';
import type { Settler } from '@voice-router/settlement';

/** Counts the responses of one route template. */
export interface RouteMetrics {
  count(status: number, provider: string): void;
}

export interface DataPlaneMetrics {
  readonly enabled: boolean;
  /** The counter of one route template; undefined when metrics are off (the route is then not wrapped). */
  route(pattern: string): RouteMetrics | undefined;
  firstAudio(provider: string, seconds: number): void;
  limitRefused(kind: LimitRefusalKind): void;
  /** Plain numbers the speech route keeps up to date (read at scrape time). */
  readonly stream: SpeechStreamCounters;
}

const freshCounters = (): SpeechStreamCounters => ({ activeStreams: 0, audioBytes: 0, backpressureEvents: 0, backlogBytes: 0, maxBacklogBytes: 0 });

export const METRICS_OFF: DataPlaneMetrics = {
  enabled: false,
  route: () => undefined,
  firstAudio: () => undefined,
  limitRefused: () => undefined,
  stream: freshCounters(),
};


/** A cache of label children keyed by the given values, built on first use. */
function cached<Value>(create: (key: string) => Value): (key: string) => Value {
  const children = new Map<string, Value>();
  return (key) => {
    let child = children.get(key);
    if (child === undefined) children.set(key, (child = create(key)));
    return child;
  };
}

export function createDataPlaneMetrics(registry: MetricsRegistry): DataPlaneMetrics {
  const { requests } = httpMetrics(registry);
  const speech = speechMetrics(registry);
  const { refusals } = limitMetrics(registry);
  const firstAudio = cached<ObserveCell>((provider) => speech.firstAudio.cell(provider));
  const refused = cached<CountCell>((kind) => refusals.cell(kind));
  return {
    enabled: true,
    route(pattern) {
      // status → provider → child: no string is built per request.
      const byStatus = new Map<number, (provider: string) => CountCell>();
      return {
        count(status, provider) {
          let byProvider = byStatus.get(status);
          if (!byProvider) byStatus.set(status, (byProvider = cached<CountCell>((name) => requests.cell(pattern, String(status), name))));
          byProvider(provider).inc();
        },
      };
    },
    firstAudio: (provider, seconds) => firstAudio(provider).observe(seconds),
    limitRefused: (kind) => refused(kind).inc(),
    stream: speech.counters,
  };
}

const BREAKER_STATE: Record<string, BreakerStateName> = { available: 'closed', degraded: 'half_open', unavailable: 'open' };

/** Upstream attempts, retries and breaker openings, handed to createProviderRegistry (config.observer). */
export function upstreamObserver(registry: MetricsRegistry | undefined): UpstreamObserver | undefined {
  if (!registry) return undefined;
  const metrics = upstreamMetrics(registry);
  const attempts = cached<CountCell>((key) => {
    const [provider, outcome] = key.split('\n') as [string, string];
    return metrics.attempts.cell(provider, outcome);
  });
  const retries = cached<CountCell>((provider) => metrics.retries.cell(provider));
  return {
    attempt(provider, attempt, outcome) {
      attempts(`${provider}\n${outcome}`).inc();
      if (attempt > 1) retries(provider).inc();
    },
    breakerOpened: (provider) => metrics.breakerOpened.cell(provider).inc(),
  };
}

/** The scrape-time sources: breakers, speech requests in flight, settlements held, and the server in use. */
export function registerDataPlaneSources(
  registry: MetricsRegistry,
  sources: {
    providers: ProviderRegistry; settler: Settler; inFlight: () => number; server: { implementation: string; package: string; version: string };
    allowances: () => AllowanceStats;
  },
): void {
  allowanceMetrics(registry).setSource(sources.allowances);
  upstreamMetrics(registry).setBreakerSource(() => sources.providers.status().flatMap((status) =>
    status.state === 'unavailable' && status.reason === 'missing_api_key' ? [] : [{ provider: status.id, state: BREAKER_STATE[status.state]! }]));
  speechMetrics(registry).setInFlightSource(sources.inFlight);
  settlerMetrics(registry).setSource(() => sources.settler.backlog());
  serverInfoMetric(registry).set({ ...sources.server, node: process.version }, 1);
}
