// Scenarios 2 and 3: short requests (4 KB audio, the full path) at a fixed number of connections, in
// rotating rounds; meanwhile the CPU time of every process involved is read from /proc, so the report
// can divide the data plane's CPU by the requests it served and show where the rest went.
import { CpuMeter, idleBetweenRounds, waitForIdleMachine } from '../infra/proc-stats.js';
import { runThroughput } from '../load/throughput-load.js';
import type { SystemName, Target } from '../load/targets.js';
import { round } from '../report/stats.js';
import { rotate } from './added-ttfb.js';

export interface ThroughputRow {
  system: SystemName;
  connections: number;
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  non2xx: number;
  errors: number;
  /** autocannon's whole-request latency, averaged over the rounds. */
  latencyMs: { p50: number; p90: number; p99: number };
  /** CPU seconds per process group over the measured rounds. */
  cpuSeconds: Record<string, number>;
  /** The serving process's CPU per request (µs). */
  cpuMicrosPerRequest: number;
}

export async function runThroughputScenario(
  targets: Target[], options: { connections: number; seconds: number; rounds: number; warmupSeconds: number }, log: (line: string) => void,
): Promise<ThroughputRow[]> {
  const rows = new Map<SystemName, ThroughputRow & { latencyRounds: Array<{ p50: number; p90: number; p99: number }> }>();
  for (const target of targets) {
    if (options.warmupSeconds > 0) await runThroughput(target.baseUrl, (client) => target.speech('short', client), options.connections, Math.max(1, Math.round(options.warmupSeconds)));
    rows.set(target.system, {
      system: target.system, connections: options.connections, requests: 0, seconds: 0, requestsPerSecond: 0, non2xx: 0, errors: 0,
      latencyMs: { p50: 0, p90: 0, p99: 0 }, cpuSeconds: {}, cpuMicrosPerRequest: Number.NaN, latencyRounds: [],
    });
  }
  for (let roundIndex = 0; roundIndex < options.rounds; roundIndex += 1) {
    for (const target of rotate(targets, roundIndex)) {
      if (idleBetweenRounds) await waitForIdleMachine();
      const meter = new CpuMeter(target.cpuGroups());
      meter.start();
      const result = await runThroughput(target.baseUrl, (client) => target.speech('short', client), options.connections, options.seconds);
      const { cpu } = meter.stop();
      const row = rows.get(target.system)!;
      row.requests += result.requests;
      row.seconds += result.seconds;
      row.non2xx += result.non2xx;
      row.errors += result.errors;
      row.latencyRounds.push(result.latencyMs);
      for (const [group, seconds] of Object.entries(cpu)) row.cpuSeconds[group] = (row.cpuSeconds[group] ?? 0) + seconds;
      log(`  throughput ${target.system}: ${result.requestsPerSecond.toFixed(0)} req/s (n=${result.requests}, non-2xx=${result.non2xx}, errors=${result.errors})`);
    }
  }
  return [...rows.values()].map(({ latencyRounds, ...row }) => {
    const mean = (pick: (value: { p50: number; p90: number; p99: number }) => number) =>
      round(latencyRounds.reduce((sum, value) => sum + pick(value), 0) / latencyRounds.length, 2);
    const serving = row.cpuSeconds['data plane'] ?? row.cpuSeconds.proxy;
    return {
      ...row,
      seconds: round(row.seconds, 2),
      requestsPerSecond: round(row.requests / row.seconds, 0),
      latencyMs: { p50: mean((value) => value.p50), p90: mean((value) => value.p90), p99: mean((value) => value.p99) },
      cpuSeconds: Object.fromEntries(Object.entries(row.cpuSeconds).map(([group, seconds]) => [group, round(seconds, 2)])),
      cpuMicrosPerRequest: serving === undefined || row.requests === 0 ? Number.NaN : round((serving / row.requests) * 1e6, 1),
    };
  });
}
