// Scenario 1: time to the first audio byte through each system at several concurrencies, in rounds
// that rotate the order of systems so machine noise falls on all of them alike. The router's added
// time is its percentile minus the direct percentile at the same concurrency.
//
// Each round opens with a warm-up slice whose samples are kept apart (`afterPause`): between two rounds
// of one system the others run theirs, so every round begins after seconds without a request, and
// whatever a system lets go of when idle is rebuilt in its first requests. The router's allowances are
// such state (retired after 1 s without a request; an account's first requests after that reserve
// through the database). Measured against the one warm-up at the start of a level, that cold start fell
// in every round: at 50 streams over 64 accounts, ~100 of a round's 750 requests, and they made its p90
// and p99. The measured slice is the steady load the targets are about; the report shows the first
// slice beside it.
import type { TtfbLevel } from '../options.js';
import { StreamClient } from '../load/ttfb-load.js';
import type { SystemName, Target } from '../load/targets.js';
import { percentiles, round, type Percentiles } from '../report/stats.js';
import { idleBetweenRounds, waitForIdleMachine } from '../infra/proc-stats.js';

export interface TtfbRow extends Percentiles {
  system: SystemName;
  /** The rounds' opening slices (after a pause), kept out of the percentiles above; absent in reports from before. */
  afterPause?: Percentiles;
  concurrency: number;
  size: string;
  errors: number;
  statuses: Record<string, number>;
  requestsPerSecond: number;
  meanBytes: number;
}

export interface AddedTtfbRow {
  system: SystemName;
  concurrency: number;
  addedP50: number;
  addedP99: number;
  p50VsBare: number;
  p50VsGateway: number;
}

export interface TtfbResult {
  rows: TtfbRow[];
  added: AddedTtfbRow[];
  /** How long each round's opening slice (`afterPause`) ran; absent without one, and in reports from before it was recorded. */
  openingSeconds?: number;
}

export const rotate = <T>(items: T[], by: number): T[] => items.map((_, index) => items[(index + by) % items.length]!);

/**
 * `warmupSeconds`: once per level for every system before the first round (not kept);
 * `roundWarmupSeconds`: at the start of every round, its samples kept apart as `afterPause`.
 */
export async function runAddedTtfb(
  targets: Target[], levels: TtfbLevel[], warmup: { warmupSeconds: number; roundWarmupSeconds: number }, log: (line: string) => void,
): Promise<TtfbResult> {
  const rows: TtfbRow[] = [];
  for (const level of levels) {
    const clients = new Map(targets.map((target) => [target.system, new StreamClient(target.baseUrl, level.concurrency)]));
    const collected = new Map(targets.map((target) => [target.system, { ttfb: [] as number[], afterPause: [] as number[], bytes: 0, errors: 0, seconds: 0, statuses: {} as Record<string, number> }]));
    try {
      if (warmup.warmupSeconds > 0) {
        for (const target of targets) await clients.get(target.system)!.run((client) => target.speech(level.size, client), level.concurrency, warmup.warmupSeconds);
      }
      for (let roundIndex = 0; roundIndex < level.rounds; roundIndex += 1) {
        for (const target of rotate(targets, roundIndex)) {
          if (idleBetweenRounds) await waitForIdleMachine();
          const client = clients.get(target.system)!;
          const into = collected.get(target.system)!;
          if (warmup.roundWarmupSeconds > 0) {
            const opening = await client.run((index) => target.speech(level.size, index), level.concurrency, warmup.roundWarmupSeconds);
            for (const sample of opening.samples) into.afterPause.push(sample.ttfbMs);
            // A request that fails fails, in whichever slice: the 500-stream target counts them all.
            into.errors += opening.errors;
            for (const [status, count] of Object.entries(opening.statuses)) if (status !== '200') into.statuses[status] = (into.statuses[status] ?? 0) + count;
          }
          const result = await client.run((index) => target.speech(level.size, index), level.concurrency, level.seconds);
          for (const sample of result.samples) {
            into.ttfb.push(sample.ttfbMs);
            into.bytes += sample.bytes;
          }
          into.errors += result.errors;
          into.seconds += result.seconds;
          for (const [status, count] of Object.entries(result.statuses)) into.statuses[status] = (into.statuses[status] ?? 0) + count;
        }
      }
    } finally {
      await Promise.all([...clients.values()].map((client) => client.close()));
    }
    for (const target of targets) {
      const data = collected.get(target.system)!;
      const stats = percentiles(data.ttfb);
      const opening = data.afterPause.length > 0 ? percentiles(data.afterPause) : undefined;
      rows.push({
        system: target.system, concurrency: level.concurrency, size: level.size, ...roundStats(stats), errors: data.errors, statuses: data.statuses,
        requestsPerSecond: round(stats.n / data.seconds, 1), meanBytes: Math.round(data.bytes / Math.max(1, stats.n)),
        ...(opening ? { afterPause: roundStats(opening) } : {}),
      });
      log(`  ttfb c=${level.concurrency} ${target.system}: n=${stats.n} p50=${stats.p50.toFixed(2)} p99=${stats.p99.toFixed(2)} ms errors=${data.errors}`
        + (opening ? ` (after a pause: n=${opening.n} p50=${opening.p50.toFixed(2)} p99=${opening.p99.toFixed(2)} ms)` : ''));
    }
  }
  return { rows, added: addedRows(rows), ...(warmup.roundWarmupSeconds > 0 ? { openingSeconds: warmup.roundWarmupSeconds } : {}) };
}

function roundStats(stats: Percentiles): Percentiles {
  return { n: stats.n, p50: round(stats.p50, 3), p90: round(stats.p90, 3), p99: round(stats.p99, 3) };
}

function addedRows(rows: TtfbRow[]): AddedTtfbRow[] {
  const find = (system: SystemName, concurrency: number) => rows.find((row) => row.system === system && row.concurrency === concurrency);
  const added: AddedTtfbRow[] = [];
  for (const row of rows) {
    if (!row.system.startsWith('router')) continue;
    const direct = find('direct', row.concurrency);
    const bare = find('bare-proxy', row.concurrency);
    const gateway = find('gateway', row.concurrency);
    if (!direct) continue;
    added.push({
      system: row.system,
      concurrency: row.concurrency,
      addedP50: round(row.p50 - direct.p50, 3),
      addedP99: round(row.p99 - direct.p99, 3),
      p50VsBare: bare ? round(row.p50 / bare.p50, 2) : Number.NaN,
      p50VsGateway: gateway ? round(row.p50 / gateway.p50, 2) : Number.NaN,
    });
  }
  return added;
}
