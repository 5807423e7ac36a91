// What a feature costs: each router mode against its twin with the feature off, measured in the same
// rotating rounds of scenarios 1 and 2. Per-key limits (KEY_LIMITS=off twin): at most +0.3 ms p50 time
// to first byte at one stream, at most 10 % fewer short requests per second. Metrics and logging
// (METRICS_ENABLED=false twin): at most 5 % of throughput.
import type { TtfbResult } from '../scenarios/added-ttfb.js';
import type { ThroughputRow } from '../scenarios/throughput.js';
import { round } from './stats.js';

export interface LimitsOverheadRow {
  mode: 'embedded' | 'scaled';
  ttfbP50OnMs: number;
  ttfbP50OffMs: number;
  /** On minus off, at one stream. */
  addedTtfbP50Ms: number;
  requestsPerSecondOn: number;
  requestsPerSecondOff: number;
  /** (off − on) ÷ off, in percent; negative when the limited router happened to be faster. */
  throughputCostPercent: number;
  cpuMicrosPerRequestOn: number;
  cpuMicrosPerRequestOff: number;
}

export function limitsOverhead(ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined): LimitsOverheadRow[] {
  return twinOverhead(ttfb, throughput, 'nolimits');
}

/** The same comparison for metrics and logging: each router against its `-nometrics` twin. */
export function metricsOverhead(ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined): LimitsOverheadRow[] {
  return twinOverhead(ttfb, throughput, 'nometrics');
}

function twinOverhead(ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined, twin: 'nolimits' | 'nometrics'): LimitsOverheadRow[] {
  const rows: LimitsOverheadRow[] = [];
  for (const mode of ['embedded', 'scaled'] as const) {
    const on = `router-${mode}`;
    const off = `router-${mode}-${twin}`;
    const ttfbOn = ttfb?.rows.find((row) => row.system === on && row.concurrency === 1);
    const ttfbOff = ttfb?.rows.find((row) => row.system === off && row.concurrency === 1);
    const rpsOn = throughput?.find((row) => row.system === on);
    const rpsOff = throughput?.find((row) => row.system === off);
    if (!ttfbOn || !ttfbOff || !rpsOn || !rpsOff) continue;
    rows.push({
      mode,
      ttfbP50OnMs: ttfbOn.p50,
      ttfbP50OffMs: ttfbOff.p50,
      addedTtfbP50Ms: round(ttfbOn.p50 - ttfbOff.p50, 3),
      requestsPerSecondOn: rpsOn.requestsPerSecond,
      requestsPerSecondOff: rpsOff.requestsPerSecond,
      throughputCostPercent: rpsOff.requestsPerSecond > 0
        ? round(((rpsOff.requestsPerSecond - rpsOn.requestsPerSecond) / rpsOff.requestsPerSecond) * 100, 1)
        : Number.NaN,
      cpuMicrosPerRequestOn: rpsOn.cpuMicrosPerRequest,
      cpuMicrosPerRequestOff: rpsOff.cpuMicrosPerRequest,
    });
  }
  return rows;
}
