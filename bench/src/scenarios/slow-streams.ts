// Scenario 4: many concurrent ~1 MB streams read by deliberately slow clients. Samples the serving
// process's resident memory, the kernel's TCP buffer memory, and (router only) the data plane's own
// per-stream backlog from its Prometheus metrics (METRICS_PORT), over a fixed window; then the clients hang up.
import { kernelTcpBytes, rssBytes } from '../infra/proc-stats.js';
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
  /** Router only: the largest per-stream user-space backlog the data plane saw. */
  maxStreamBacklogKB?: number;
  backpressureEvents?: number;
  peakActiveStreams?: number;
}

const MB = 1024 * 1024;

interface Metrics {
  activeStreams: number;
  maxStreamBacklogBytes: number;
  backpressureEvents: number;
}

/** The stream gauges and counters this scenario reads from the data plane's GET /metrics. */
const METRIC_NAMES: Record<keyof Metrics, string> = {
  activeStreams: 'voice_router_speech_streams_active',
  maxStreamBacklogBytes: 'voice_router_speech_backlog_max_bytes',
  backpressureEvents: 'voice_router_speech_backpressure_total',
};

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
    return { activeStreams: read('activeStreams'), maxStreamBacklogBytes: read('maxStreamBacklogBytes'), backpressureEvents: read('backpressureEvents') };
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
  const clients = new SlowClients(target.baseUrl, (client) => target.speech('large', client), options);
  let rssPeak = rssBaseline;
  let kernelPeak = kernelTcpBytes() ?? 0;
  let peakActive = 0;
  const sample = () => {
    rssPeak = Math.max(rssPeak, rssBytes(pid) ?? 0);
    kernelPeak = Math.max(kernelPeak, kernelTcpBytes() ?? 0);
  };
  const sampler = setInterval(sample, 200);
  let metrics: Metrics | undefined;
  try {
    await clients.open();
    const deadline = Date.now() + options.windowSeconds * 1000;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      if (metricsUrl) {
        metrics = (await readMetrics(metricsUrl)) ?? metrics;
        peakActive = Math.max(peakActive, metrics?.activeStreams ?? 0);
      }
    }
    sample();
  } finally {
    clearInterval(sampler);
  }
  const totals = clients.totals();
  clients.close();
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
    ...(metricsUrl && metrics
      ? {
        maxStreamBacklogKB: round(metrics.maxStreamBacklogBytes / 1024, 1),
        backpressureEvents: metrics.backpressureEvents - (baseline?.backpressureEvents ?? 0),
        peakActiveStreams: peakActive,
      }
      : {}),
  };
}
