// Scenario 4: many concurrent ~1 MB streams read by deliberately slow clients. Samples the serving
// process's resident memory, the kernel's TCP buffer memory, and (router only) the data plane's own
// per-stream backlog from its Prometheus metrics (METRICS_PORT), over a fixed window; then the clients hang up.
import { acceptQueueLength, kernelTcpBytes, listenOverflows, rssBytes, threadSchedule } from '../infra/proc-stats.js';
import { SlowClients, type SlowClientTotals } from '../load/slow-clients.js';
import type { SystemName, Target } from '../load/targets.js';
import { round } from '../report/stats.js';

export interface SlowStreamRow extends SlowClientTotals {
  system: SystemName;
  windowSeconds: number;
  rssBaselineMB: number;
  rssPeakMB: number;
  /** (peak − baseline) / streams that received audio. */
  rssPerStreamKB: number;
  kernelTcpPeakMB: number;
  /**
   * Connection attempts the kernel dropped for a full accept queue while the streams opened and ran
   * (machine-wide, but the systems are measured one at a time). Absent in reports before session 48.
   */
  droppedSyns?: number;
  /**
   * The most connections seen (every 200 ms) in the serving port's accept queue: completed by the kernel,
   * their requests sent, not yet taken by the process. Absent in reports before session 50.
   */
  acceptQueuePeak?: number;
  /**
   * The same queue summed over the window: connection-seconds spent in it (each sample's length times the time
   * since the one before). Divided by the streams, how long a connection waited there on average. Absent
   * in reports before session 50.
   */
  acceptQueueSeconds?: number;
  /**
   * The serving process's main thread over the window, in % of it: running on a CPU, and runnable but waiting
   * for one (the machine's cores busy with other threads or processes). Absent in reports before session 50.
   */
  mainThread?: { onCpuPercent: number; waitingForCpuPercent: number };
  /** Router only: the largest per-stream user-space backlog the data plane saw. */
  maxStreamBacklogKB?: number;
  backpressureEvents?: number;
  peakActiveStreams?: number;
  /** Router only: what the serving process's memory was made of before the streams and at the metrics read with the highest RSS. */
  memory?: { before: MemoryComposition; atPeak: MemoryComposition };
  /**
   * Router only: the serving process's highest RSS while it last started, before this scenario (sampled
   * every 100 ms from its spawn until its start-up work was done; in the quick run, until it served).
   */
  rssStartupPeakMB?: number;
}

/**
 * One process's memory in MB, from its own default metrics (prom-client: `process.memoryUsage()` and V8's
 * heap spaces, main thread) and `/proc` at the same moment. `otherMB` is what neither accounts for: the
 * Node binary, native allocations, and in the embedded process PGlite's thread (its WebAssembly memory
 * and its own V8 heap).
 */
export interface MemoryComposition {
  rssMB: number;
  /** The main thread's V8 heap, committed. */
  heapMB: number;
  newSpaceMB: number;
  oldSpaceMB: number;
  /** Memory outside the V8 heap that V8 tracks: mostly ArrayBuffers (audio chunks, some awaiting collection). */
  externalMB: number;
  otherMB: number;
}

const MB = 1024 * 1024;

interface Metrics {
  activeStreams: number;
  maxStreamBacklogBytes: number;
  backpressureEvents: number;
  heapBytes: number;
  newSpaceBytes: number;
  oldSpaceBytes: number;
  externalBytes: number;
}

/** The stream gauges and counters, and the memory gauges, this scenario reads from the data plane's GET /metrics. */
const METRIC_NAMES: Record<keyof Metrics, string> = {
  activeStreams: 'voice_router_speech_streams_active',
  maxStreamBacklogBytes: 'voice_router_speech_backlog_max_bytes',
  backpressureEvents: 'voice_router_speech_backpressure_total',
  heapBytes: 'nodejs_heap_size_total_bytes',
  newSpaceBytes: 'nodejs_heap_space_size_total_bytes{space="new"}',
  oldSpaceBytes: 'nodejs_heap_space_size_total_bytes{space="old"}',
  externalBytes: 'nodejs_external_memory_bytes',
};

function composition(rss: number, metrics: Metrics): MemoryComposition {
  const mb = (bytes: number) => round(bytes / MB, 1);
  return {
    rssMB: mb(rss), heapMB: mb(metrics.heapBytes), newSpaceMB: mb(metrics.newSpaceBytes), oldSpaceMB: mb(metrics.oldSpaceBytes),
    externalMB: mb(metrics.externalBytes), otherMB: mb(rss - metrics.heapBytes - metrics.externalBytes),
  };
}

async function readMetrics(metricsUrl: string): Promise<Metrics | undefined> {
  try {
    const response = await fetch(`${metricsUrl}/metrics`);
    if (!response.ok) return undefined;
    const values = new Map<string, number>();
    for (const line of (await response.text()).split('\n')) {
      const [name, value] = line.split(' ');
      if (name && value && !name.startsWith('#')) values.set(name, Number(value));
    }
    const read = (key: keyof Metrics) => values.get(METRIC_NAMES[key]) ?? 0;
    return Object.fromEntries(Object.keys(METRIC_NAMES).map((key) => [key, read(key as keyof Metrics)])) as unknown as Metrics;
  } catch {
    return undefined;
  }
}

export async function runSlowStreams(
  target: Target, options: { streams: number; readBytes: number; intervalMs: number; windowSeconds: number }, pauseMs: number,
): Promise<SlowStreamRow> {
  const pid = target.pids()[0]!;
  const metricsUrl = target.metricsUrl;
  await new Promise((resolve) => setTimeout(resolve, Math.min(300, pauseMs)));
  const rssBaseline = rssBytes(pid) ?? 0;
  // Backpressure is a counter since the process started: the window's share is the difference.
  const baseline = metricsUrl ? await readMetrics(metricsUrl) : undefined;
  const memoryBefore = baseline && composition(rssBaseline, baseline);
  let memoryAtPeak: MemoryComposition | undefined;
  let memoryAtPeakRss = 0;
  const clients = new SlowClients(target.baseUrl, (client) => target.speech('large', client), options);
  let rssPeak = rssBaseline;
  let kernelPeak = kernelTcpBytes() ?? 0;
  let peakActive = 0;
  const url = new URL(target.baseUrl);
  const port = Number(url.port);
  const family = url.hostname.startsWith('[') ? 'ipv6' : 'ipv4';
  let acceptQueuePeak: number | undefined;
  let acceptQueueSeconds = 0;
  let sampledAt = performance.now();
  const sample = () => {
    rssPeak = Math.max(rssPeak, rssBytes(pid) ?? 0);
    kernelPeak = Math.max(kernelPeak, kernelTcpBytes() ?? 0);
    const queued = acceptQueueLength(port, family);
    const now = performance.now();
    if (queued !== undefined) {
      acceptQueuePeak = Math.max(acceptQueuePeak ?? 0, queued);
      acceptQueueSeconds += (queued * (now - sampledAt)) / 1000;
    }
    sampledAt = now;
  };
  const sampler = setInterval(sample, 200);
  let metrics: Metrics | undefined;
  const overflowsBefore = listenOverflows();
  const scheduleBefore = threadSchedule(pid);
  const windowStart = performance.now();
  try {
    await clients.open();
    const deadline = Date.now() + options.windowSeconds * 1000;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (metricsUrl) {
        const read = await readMetrics(metricsUrl);
        // The process's RSS right after its metrics were taken: the pair describes one moment.
        const rss = rssBytes(pid);
        if (read && rss !== undefined && rss > memoryAtPeakRss) {
          memoryAtPeakRss = rss;
          memoryAtPeak = composition(rss, read);
        }
        metrics = read ?? metrics;
        peakActive = Math.max(peakActive, metrics?.activeStreams ?? 0);
      }
    }
    sample();
  } finally {
    clearInterval(sampler);
  }
  const overflowsAfter = listenOverflows();
  const scheduleAfter = threadSchedule(pid);
  const windowNs = (performance.now() - windowStart) * 1e6;
  const mainThread = scheduleBefore && scheduleAfter && {
    onCpuPercent: round(((scheduleAfter.runNs - scheduleBefore.runNs) / windowNs) * 100, 1),
    waitingForCpuPercent: round(((scheduleAfter.waitNs - scheduleBefore.waitNs) / windowNs) * 100, 1),
  };
  const totals = clients.totals();
  clients.close();
  const startupPeak = target.startupPeakRss?.();
  // Let the data plane notice the hang-ups and settle before the next system is measured.
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
  return {
    system: target.system,
    windowSeconds: options.windowSeconds,
    ...totals,
    rssBaselineMB: round(rssBaseline / MB, 1),
    rssPeakMB: round(rssPeak / MB, 1),
    rssPerStreamKB: round((rssPeak - rssBaseline) / 1024 / Math.max(1, totals.streaming), 1),
    kernelTcpPeakMB: round(kernelPeak / MB, 1),
    ...(overflowsBefore !== undefined && overflowsAfter !== undefined ? { droppedSyns: overflowsAfter - overflowsBefore } : {}),
    ...(acceptQueuePeak !== undefined ? { acceptQueuePeak, acceptQueueSeconds: round(acceptQueueSeconds, 1) } : {}),
    ...(mainThread ? { mainThread } : {}),
    ...(metricsUrl && metrics
      ? {
        maxStreamBacklogKB: round(metrics.maxStreamBacklogBytes / 1024, 1),
        backpressureEvents: metrics.backpressureEvents - (baseline?.backpressureEvents ?? 0),
        peakActiveStreams: peakActive,
        ...(memoryBefore && memoryAtPeak ? { memory: { before: memoryBefore, atPeak: memoryAtPeak } } : {}),
      }
      : {}),
    ...(startupPeak !== undefined ? { rssStartupPeakMB: round(startupPeak / MB, 1) } : {}),
  };
}
