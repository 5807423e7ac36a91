// The targets, each judged against this run's figures: met, missed, or not measured.
import type { BenchResults } from './write-results.js';

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
  for (const row of addedTtfb?.added.filter((item) => item.concurrency === 50) ?? []) {
    add('1', 'added TTFB p50 at 50 streams', row.system, row.addedP50, 'ms', '≤ 1 ms', (value) => value <= 1);
    add('1', 'added TTFB p99 at 50 streams', row.system, row.addedP99, 'ms', '≤ 5 ms', (value) => value <= 5);
  }
  const bare = throughput?.find((row) => row.system === 'bare-proxy');
  for (const row of throughput?.filter((item) => item.system.startsWith('router')) ?? []) {
    if (row.system === 'router-scaled') add('2', 'short requests/s, 64 connections', row.system, row.requestsPerSecond, 'req/s', '≥ 5,000 req/s', (value) => value >= 5000);
    if (bare) add('2', 'share of the bare proxy\'s rate', row.system, Math.round((row.requestsPerSecond / bare.requestsPerSecond) * 100), '%', '≥ 50 %', (value) => value >= 50);
    add('3', 'data-plane CPU per request', row.system, row.cpuMicrosPerRequest, 'µs', '≤ 150 µs', (value) => value <= 150);
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
    add('4', `data-plane RSS peak, ${row.streams} slow streams`, row.system, row.rssPeakMB, 'MB', '≤ 300 MB', (value) => value <= 300);
    add('4', 'largest per-stream backlog', row.system, row.maxStreamBacklogKB, 'KB', '≤ 256 KB', (value) => value <= 256);
  }
  for (const row of hotWallet ?? []) {
    add('5', 'reservations/s on one wallet, 200 concurrent', `router-${row.mode}`, row.reservationsPerSecond, '/s', '≥ 2,000/s', (value) => value >= 2000);
    add('5', 'nothing overspent (books checked)', `router-${row.mode}`, row.check.passed ? 1 : 0, '', 'holds', (value) => value === 1);
  }
  if (settlement) add('6', `commits/s, backlog of ${settlement.jobs} jobs`, 'router-scaled', settlement.commitsPerSecond, '/s', '≥ 5,000/s', (value) => value >= 5000);
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
