// The targets, each judged against this run's figures: met, missed, or not measured.
import type { BenchResults } from './write-results.js';
import type { ThroughputRow } from '../scenarios/throughput.js';
import { ratio, round } from './stats.js';

/** Everything the router's own processes spent per request (the upstream and the load generator left out). */
function systemCpuMicros(row: ThroughputRow): number {
  const own = ['data plane', 'worker', 'control plane', 'postgres', 'redis'];
  const seconds = own.reduce((sum, group) => sum + (row.cpuSeconds[group] ?? 0), 0);
  return row.requests ? round((seconds / row.requests) * 1e6, 1) : Number.NaN;
}

export interface TargetCheck {
  scenario: string;
  metric: string;
  system: string;
  value: number | undefined;
  unit: string;
  target: string;
  met: boolean | undefined;
}

export function checkTargets(results: BenchResults): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const add = (scenario: string, metric: string, system: string, value: number | undefined, unit: string, target: string, pass: (value: number) => boolean) =>
    checks.push({ scenario, metric, system, value, unit, target, met: value === undefined || !Number.isFinite(value) ? undefined : pass(value) });
  const { addedTtfb, throughput, profiles, slowStreams, hotWallet, settlement, activity, limits, metrics, transcodeTtfb } = results.scenarios;
  // Issue 11's table. Targets 1-3 count for the routers as users run them (limits on, metrics on, a
  // priced model): router-embedded and router-scaled, and their Node 24 twins; the feature-off twins
  // only price a feature and are not judged here.
  const judged = (system: string) => /^router-(embedded|scaled)(-node24)?$/.test(system);
  const scaled = (system: string) => system.startsWith('router-scaled');
  const ttfbRow = (system: string, concurrency: number) => addedTtfb?.rows.find((row) => row.system === system && row.concurrency === concurrency);
  const concurrencies = [...new Set(addedTtfb?.rows.map((row) => row.concurrency) ?? [])];
  const single = concurrencies.includes(1) ? 1 : undefined;
  const mid = concurrencies.find((value) => value > 1 && value < 500);
  const top = concurrencies.includes(500) ? 500 : undefined;
  for (const row of addedTtfb?.rows.filter((item) => judged(item.system)) ?? []) {
    const bare = ttfbRow('bare-proxy', row.concurrency);
    if (!bare) continue;
    if (row.concurrency === single) {
      const limit = scaled(row.system) ? 0.3 : 0.6;
      add('1', 'added TTFB p50 at 1 stream over the bare proxy', row.system, round(row.p50 - bare.p50, 3), 'ms', `≤ +${limit} ms`, (value) => value <= limit);
    } else if (row.concurrency === mid) {
      add('1', `TTFB p50 at ${mid} streams ÷ bare proxy`, row.system, ratio(row.p50, bare.p50), '×', '≤ 1.5×', (value) => value <= 1.5);
      add('1', `TTFB p99 at ${mid} streams ÷ bare proxy`, row.system, ratio(row.p99, bare.p99), '×', '≤ 2×', (value) => value <= 2);
    } else if (row.concurrency === top) {
      add('1', `${top} streams: failed requests`, row.system, row.errors, '', '0', (value) => value === 0);
      add('1', `TTFB p99 at ${top} streams ÷ bare proxy`, row.system, ratio(row.p99, bare.p99), '×', '≤ 2×', (value) => value <= 2);
    }
  }
  const bare = throughput?.find((row) => row.system === 'bare-proxy');
  for (const row of throughput?.filter((item) => judged(item.system)) ?? []) {
    const share = scaled(row.system) ? 60 : 40;
    if (bare) add('2', 'short requests/s, 64 connections, share of the bare proxy', row.system, Math.round((row.requestsPerSecond / bare.requestsPerSecond) * 100), '%', `≥ ${share} %`, (value) => value >= share);
    add('3', 'CPU per request, data plane', row.system, row.cpuMicrosPerRequest, 'µs', '≤ 150 µs', (value) => value <= 150);
    add('3', 'CPU per request, whole system', row.system, systemCpuMicros(row), 'µs', '≤ 500 µs', (value) => value <= 500);
  }
  for (const row of limits ?? []) {
    add('2b', 'per-key limits: added TTFB p50 at 1 stream', `router-${row.mode}`, row.addedTtfbP50Ms, 'ms', '≤ 0.3 ms', (value) => value <= 0.3);
    add('2b', 'per-key limits: throughput cost', `router-${row.mode}`, row.throughputCostPercent, '%', '≤ 10 %', (value) => value <= 10);
  }
  for (const row of metrics ?? []) {
    add('2c', 'metrics and logging: throughput cost', `router-${row.mode}`, row.throughputCostPercent, '%', '≤ 5 %', (value) => value <= 5);
  }
  void profiles;
  for (const row of slowStreams?.filter((item) => item.system.startsWith('router')) ?? []) {
    add('4', `data-plane RSS peak, ${row.streams} slow streams`, row.system, row.rssPeakMB, 'MB', '≤ 250 MB', (value) => value <= 250);
    add('4', 'largest per-stream backlog', row.system, row.maxStreamBacklogKB, 'KB', '≤ 256 KB', (value) => value <= 256);
  }
  for (const row of hotWallet ?? []) {
    const floor = row.mode === 'scaled' ? 10_000 : 5_000;
    add('5', 'reservations/s on one wallet, 200 concurrent', `router-${row.mode}`, row.reservationsPerSecond, '/s', `≥ ${floor.toLocaleString('en-US')}/s`, (value) => value >= floor);
    add('5', 'nothing overspent (books checked)', `router-${row.mode}`, row.check.passed ? 1 : 0, '', 'holds', (value) => value === 1);
  }
  if (settlement) add('6', `commits/s, backlog of ${settlement.jobs} jobs`, 'router-scaled', settlement.commitsPerSecond, '/s', '≥ 20,000/s', (value) => value >= 20_000);
  for (const row of activity ?? []) {
    add('7', `${row.endpoint} p50, ${row.ledgerRows} rows`, `router-${row.mode}`, row.n ? row.p50 : undefined, 'ms', '≤ 50 ms', (value) => value <= 50);
  }
  for (const row of transcodeTtfb?.rows.filter((item) => item.system !== 'mp3-direct') ?? []) {
    add('8', 'added TTFB p50 by output conversion', row.system, row.addedP50, 'ms', '≤ 5 ms', (value) => value <= 5);
    add('8', 'upstream finished before the first byte', row.system, row.upstreamFinishedFirst, '', '0', (value) => value === 0);
  }
  for (const row of transcodeTtfb?.work ?? []) {
    add('8', 'conversion work before the first byte p50', `wav48k-to-${row.target}`, row.p50, 'ms', '≤ 5 ms', (value) => value <= 5);
  }
  return checks;
}
