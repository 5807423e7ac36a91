// One Prometheus registry per process (the embedded process holds every app in one). Each app asks for
// the metric groups it owns; a group is created once per registry, so two apps in one process share it.
import { collectDefaultMetrics, Registry } from 'prom-client';

export type MetricsRegistry = Registry;

/**
 * A registry with the standard process and Node.js metrics (process_cpu_seconds_total, nodejs_heap_size_used_bytes, …).
 * The event-loop delay is sampled every 100 ms: prom-client's default of 10 ms woke an idle process 100
 * times a second (the embedded service at rest: 23 ms of CPU a second, 11-14 with 100 ms). A stall of
 * 100 ms or more always shows (the armed timer fires that much late); shorter ones are sampled.
 */
export function createMetricsRegistry(options: { defaultMetrics?: boolean } = {}): MetricsRegistry {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 100 });
  return registry;
}

const groups = new WeakMap<MetricsRegistry, Map<string, unknown>>();

/** The group `name` of this registry, created by `create` the first time it is asked for. */
export function metricGroup<Group>(registry: MetricsRegistry, name: string, create: (registry: MetricsRegistry) => Group): Group {
  let byName = groups.get(registry);
  if (!byName) groups.set(registry, (byName = new Map()));
  if (!byName.has(name)) byName.set(name, create(registry));
  return byName.get(name) as Group;
}
