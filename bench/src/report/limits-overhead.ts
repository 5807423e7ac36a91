// What a feature costs: each router mode against its twin with the feature off, measured in the same
// rotating rounds of scenarios 1 and 2. Per-key limits (KEY_LIMITS=off twin): at most +0.3 ms p50 time
// to first byte at one stream, at most 10 % fewer short requests per second. Metrics and logging
// (METRICS_ENABLED=false twin): at most 5 % of throughput. The paired measurements (1b, 2p: the two
// sides alternating request by request or slice by slice) are preferred when the run has them.
import type { TtfbResult } from '../scenarios/added-ttfb.js';
import type { ThroughputRow } from '../scenarios/throughput.js';
import type { PairedTtfbRow } from '../scenarios/paired-ttfb.js';
import type { PairedThroughputRow } from '../scenarios/paired-throughput.js';
import { costPercent, round } from './stats.js';

export interface LimitsOverheadRow {
  mode: 'embedded' | 'scaled';
  /** The system on the "on" side: the reference twin, or the main router when the run has none. */
  onSystem: string;
  ttfbP50OnMs: number;
  ttfbP50OffMs: number;
  /** On minus off, at one stream: from the paired measurement when there is one, else from the rounds of scenario 1. */
  addedTtfbP50Ms: number;
  /** Where addedTtfbP50Ms comes from. */
  ttfbMethod: 'paired' | 'rounds';
  /** The rounds-based difference (scenario 1's p50s), kept beside the paired one. */
  roundsAddedTtfbP50Ms: number;
  /** Pairs behind the paired figure (0 when there is none). */
  pairs: number;
  requestsPerSecondOn: number;
  requestsPerSecondOff: number;
  /** (off − on) ÷ off, in percent; negative when the limited router happened to be faster. */
  throughputCostPercent: number;
  /** Where the throughput figures come from: alternating slices (scenario 2p) when measured, else the rounds of scenario 2. */
  throughputMethod: 'paired' | 'rounds';
  /** The rounds-based cost (scenario 2's pooled rounds), kept beside the paired one. */
  roundsThroughputCostPercent: number;
  /** Slices per side behind the paired figure (0 when there is none). */
  slices: number;
  /** The median over slice pairs of the cost, in percent (NaN without slices). */
  medianSliceCostPercent: number;
  cpuMicrosPerRequestOn: number;
  cpuMicrosPerRequestOff: number;
}

/** The paired measurements, when the run has them: scenario 1b (TTFB) and 2p (throughput). */
export interface PairedMeasurements {
  ttfb?: PairedTtfbRow[];
  throughput?: PairedThroughputRow[];
}

export function limitsOverhead(ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined, paired: PairedMeasurements = {}): LimitsOverheadRow[] {
  return twinOverhead(ttfb, throughput, 'nolimits', paired);
}

/** The same comparison for metrics and logging: each router against its `-nometrics` twin. */
export function metricsOverhead(ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined, paired: PairedMeasurements = {}): LimitsOverheadRow[] {
  return twinOverhead(ttfb, throughput, 'nometrics', paired);
}

function twinOverhead(
  ttfb: TtfbResult | undefined, throughput: ThroughputRow[] | undefined, twin: 'nolimits' | 'nometrics', paired: PairedMeasurements,
): LimitsOverheadRow[] {
  const rows: LimitsOverheadRow[] = [];
  for (const mode of ['embedded', 'scaled'] as const) {
    // The reference twin (started like the feature-off twin, nothing off) when the run has one: the main
    // router process differs from its twins in more than the feature (its data, its start, its role).
    const hasReference = throughput?.some((row) => row.system === `router-${mode}-ref`) ?? false;
    const on = hasReference ? `router-${mode}-ref` : `router-${mode}`;
    const off = `router-${mode}-${twin}`;
    const ttfbOn = ttfb?.rows.find((row) => row.system === on && row.concurrency === 1);
    const ttfbOff = ttfb?.rows.find((row) => row.system === off && row.concurrency === 1);
    const rpsOn = throughput?.find((row) => row.system === on);
    const rpsOff = throughput?.find((row) => row.system === off);
    if (!ttfbOn || !ttfbOff || !rpsOn || !rpsOff) continue;
    const pair = paired.ttfb?.find((row) => row.on === on && row.off === off && row.pairs > 0);
    const slices = paired.throughput?.find((row) => row.on === on && row.off === off && row.requestsOn > 0 && row.requestsOff > 0);
    const roundsAdded = round(ttfbOn.p50 - ttfbOff.p50, 3);
    const roundsCost = round(costPercent(rpsOn.requestsPerSecond, rpsOff.requestsPerSecond), 1);
    rows.push({
      mode,
      onSystem: on,
      ttfbP50OnMs: pair ? pair.p50OnMs : ttfbOn.p50,
      ttfbP50OffMs: pair ? pair.p50OffMs : ttfbOff.p50,
      addedTtfbP50Ms: pair ? pair.addedP50Ms : roundsAdded,
      ttfbMethod: pair ? 'paired' : 'rounds',
      roundsAddedTtfbP50Ms: roundsAdded,
      pairs: pair?.pairs ?? 0,
      requestsPerSecondOn: slices ? slices.requestsPerSecondOn : rpsOn.requestsPerSecond,
      requestsPerSecondOff: slices ? slices.requestsPerSecondOff : rpsOff.requestsPerSecond,
      throughputCostPercent: slices ? slices.costPercent : roundsCost,
      throughputMethod: slices ? 'paired' : 'rounds',
      roundsThroughputCostPercent: roundsCost,
      slices: slices?.slices ?? 0,
      medianSliceCostPercent: slices ? slices.medianPairCostPercent : Number.NaN,
      cpuMicrosPerRequestOn: slices ? slices.cpuMicrosPerRequestOn : rpsOn.cpuMicrosPerRequest,
      cpuMicrosPerRequestOff: slices ? slices.cpuMicrosPerRequestOff : rpsOff.cpuMicrosPerRequest,
    });
  }
  return rows;
}
