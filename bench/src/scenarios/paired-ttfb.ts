// What a feature adds to the time to first byte at one stream, measured in pairs: one request to the
// router, then the same request to its twin with the feature off, alternating (which goes first also
// alternates), one at a time. Both see the same machine at the same moment, so the drift between
// rounds (the worker settling earlier rounds, PostgreSQL checkpoints, other processes) falls on both
// alike, and the difference of the two medians is the feature's price rather than the machine's mood.
import { StreamClient } from '../load/ttfb-load.js';
import type { SystemName, Target } from '../load/targets.js';
import { percentiles, round } from '../report/stats.js';
import { idleBetweenRounds, waitForIdleMachine } from '../infra/proc-stats.js';

export interface PairedTtfbRow {
  on: SystemName;
  off: SystemName;
  pairs: number;
  p50OnMs: number;
  p50OffMs: number;
  /** Median of on − off over the pairs (each pair measured back to back). */
  medianPairDifferenceMs: number;
  /** p50 on − p50 off. */
  addedP50Ms: number;
  errors: number;
}

export async function runPairedTtfb(
  pairs: Array<{ on: Target; off: Target }>, options: { seconds: number; warmupRequests: number }, log: (line: string) => void,
): Promise<PairedTtfbRow[]> {
  const rows: PairedTtfbRow[] = [];
  for (const { on, off } of pairs) {
    if (idleBetweenRounds) await waitForIdleMachine();
    const clients = [new StreamClient(on.baseUrl, 1), new StreamClient(off.baseUrl, 1)] as const;
    const specs = [on.speech('short'), off.speech('short')] as const;
    const onSamples: number[] = [];
    const offSamples: number[] = [];
    const differences: number[] = [];
    let errors = 0;
    try {
      for (let index = 0; index < options.warmupRequests; index += 1) {
        await clients[0].once(specs[0]).catch(() => undefined);
        await clients[1].once(specs[1]).catch(() => undefined);
      }
      const deadline = performance.now() + options.seconds * 1000;
      for (let pair = 0; performance.now() < deadline; pair += 1) {
        const order = pair % 2 === 0 ? [0, 1] as const : [1, 0] as const;
        const ttfb: [number | undefined, number | undefined] = [undefined, undefined];
        for (const side of order) {
          try {
            const { sample } = await clients[side].once(specs[side]);
            if (sample) ttfb[side] = sample.ttfbMs;
            else errors += 1;
          } catch {
            errors += 1;
          }
        }
        if (ttfb[0] === undefined || ttfb[1] === undefined) continue;
        onSamples.push(ttfb[0]);
        offSamples.push(ttfb[1]);
        differences.push(ttfb[0] - ttfb[1]);
      }
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
    const row: PairedTtfbRow = {
      on: on.system,
      off: off.system,
      pairs: differences.length,
      p50OnMs: round(percentiles(onSamples).p50, 3),
      p50OffMs: round(percentiles(offSamples).p50, 3),
      medianPairDifferenceMs: round(percentiles(differences).p50, 3),
      addedP50Ms: round(percentiles(onSamples).p50 - percentiles(offSamples).p50, 3),
      errors,
    };
    log(`  paired ttfb ${row.on} vs ${row.off}: ${row.pairs} pairs, p50 ${row.p50OnMs} vs ${row.p50OffMs} ms (+${row.addedP50Ms}; median pair difference ${row.medianPairDifferenceMs}), errors=${errors}`);
    rows.push(row);
  }
  return rows;
}
