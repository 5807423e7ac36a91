// What a feature costs in throughput, measured in alternating slices: short requests at the scenario's
// connection count against the router for one slice, then against its twin with the feature off for the
// next, and so on. Rounds of scenario 2 lie seconds apart, and on two cores everything else running (the
// worker settling earlier rounds, PostgreSQL checkpoints, the other twins' timers) moves a round's figure
// by tens of percent; slices a second long, interleaved, meet that drift alike.
//
// The order is strictly alternating, on-off-on-off… for the first half and off-on-off-on… for the second
// (slicePlan), so that every slice but one follows a slice of the other side (neither side gets more
// "second slice in a row" slices, which run faster: settling, allowances and caches are warm) and both have the
// same mean position in time (a warming trend favours neither). An order that alternated pairs (on-off,
// off-on, …) did neither exactly, and in A/A runs of two identical data planes it favoured the second-named
// one by 8-16 %. Each side's requests and seconds are pooled over its slices; the median of the slice
// pairs' ratios is kept beside it as a check.
import { CpuMeter } from '../infra/proc-stats.js';
import { runThroughput } from '../load/throughput-load.js';
import type { SystemName, Target } from '../load/targets.js';
import { costPercent, percentiles, round } from '../report/stats.js';

export interface PairedThroughputRow {
  on: SystemName;
  off: SystemName;
  connections: number;
  /** Slices per side. */
  slices: number;
  sliceSeconds: number;
  requestsOn: number;
  requestsOff: number;
  requestsPerSecondOn: number;
  requestsPerSecondOff: number;
  /** (off − on) ÷ off over the pooled slices, in percent. */
  costPercent: number;
  /** The median over slice pairs of (off − on) ÷ off, in percent. */
  medianPairCostPercent: number;
  /** The serving process's CPU per request on each side (µs), over the same slices. */
  cpuMicrosPerRequestOn: number;
  cpuMicrosPerRequestOff: number;
  non2xx: number;
  errors: number;
}

/**
 * The slice pairs in time order: [on, off] for the first half, [off, on] for the second. Flattened, the
 * sides strictly alternate and their mean positions are equal. An odd count gets one more [on, off].
 */
export function slicePlan(slices: number): Array<readonly [0 | 1, 0 | 1]> {
  const first = Math.ceil(slices / 2);
  return Array.from({ length: slices }, (_, index) => (index < first ? [0, 1] as const : [1, 0] as const));
}

export async function runPairedThroughput(
  pairs: Array<{ on: Target; off: Target }>,
  options: { connections: number; slices: number; sliceSeconds: number; warmupSeconds: number },
  log: (line: string) => void,
): Promise<PairedThroughputRow[]> {
  const rows: PairedThroughputRow[] = [];
  for (const { on, off } of pairs) {
    const sides = [on, off] as const;
    if (options.warmupSeconds > 0) {
      for (const target of sides) {
        await runThroughput(target.baseUrl, (client) => target.speech('short', client), options.connections, options.warmupSeconds);
      }
    }
    const requests = [0, 0];
    const seconds = [0, 0];
    const cpu = [0, 0];
    const sliceRates: Array<[number, number]> = [];
    let non2xx = 0;
    let errors = 0;
    for (const order of slicePlan(options.slices)) {
      const rates: [number, number] = [0, 0];
      for (const side of order) {
        const target = sides[side];
        const meter = new CpuMeter(target.cpuGroups());
        meter.start();
        const result = await runThroughput(target.baseUrl, (client) => target.speech('short', client), options.connections, options.sliceSeconds);
        const used = meter.stop().cpu;
        requests[side]! += result.requests;
        seconds[side]! += result.seconds;
        cpu[side]! += used['data plane'] ?? used.proxy ?? Number.NaN;
        rates[side] = result.requestsPerSecond;
        non2xx += result.non2xx;
        errors += result.errors;
      }
      sliceRates.push(rates);
    }
    const rate = (side: 0 | 1) => (seconds[side]! > 0 ? requests[side]! / seconds[side]! : 0);
    const perRequest = (side: 0 | 1) => (requests[side]! > 0 ? round((cpu[side]! / requests[side]!) * 1e6, 1) : Number.NaN);
    const row: PairedThroughputRow = {
      on: on.system,
      off: off.system,
      connections: options.connections,
      slices: options.slices,
      sliceSeconds: options.sliceSeconds,
      requestsOn: requests[0]!,
      requestsOff: requests[1]!,
      requestsPerSecondOn: round(rate(0), 0),
      requestsPerSecondOff: round(rate(1), 0),
      costPercent: round(costPercent(rate(0), rate(1)), 1),
      medianPairCostPercent: round(percentiles(sliceRates.map(([onRate, offRate]) => costPercent(onRate, offRate))).p50, 1),
      cpuMicrosPerRequestOn: perRequest(0),
      cpuMicrosPerRequestOff: perRequest(1),
      non2xx,
      errors,
    };
    log(`  paired throughput ${row.on} vs ${row.off}: ${row.requestsPerSecondOn} vs ${row.requestsPerSecondOff} req/s over ${row.slices} slices each`
      + ` (cost ${row.costPercent} %, median pair ${row.medianPairCostPercent} %; data plane ${row.cpuMicrosPerRequestOn} vs ${row.cpuMicrosPerRequestOff} µs/request)`);
    rows.push(row);
  }
  return rows;
}
