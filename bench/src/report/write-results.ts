// Where the results go: bench/results/<date>-<commit>.md, latest.json and the SVG charts (quick runs
// under bench/results/quick/, which git ignores, so CI never dirties the tree).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repositoryRoot } from '../infra/managed-process.js';
import type { machineSummary } from '../infra/proc-stats.js';
import type { UPSTREAM_PACING } from '../options.js';
import type { ActivityRow } from '../scenarios/activity.js';
import type { TtfbResult } from '../scenarios/added-ttfb.js';
import type { ProfileResult } from '../scenarios/cpu-profile.js';
import type { HotWalletRow } from '../scenarios/hot-wallet.js';
import type { SettlementRow } from '../scenarios/settlement.js';
import type { SlowStreamRow } from '../scenarios/slow-streams.js';
import type { ThroughputRow } from '../scenarios/throughput.js';
import type { TranscodeTtfbResult } from '../scenarios/transcode-ttfb.js';
import type { LimitsOverheadRow } from './limits-overhead.js';
import type { PairedTtfbRow } from '../scenarios/paired-ttfb.js';
import type { PairedThroughputRow } from '../scenarios/paired-throughput.js';
import { renderMarkdown } from './markdown.js';
import { groupedBarChart } from './svg-chart.js';
import { checkTargets } from './targets-check.js';

export interface BenchResults {
  startedAt: string;
  commit?: string;
  /** The working tree had changes not yet committed when the run started. */
  dirty?: boolean;
  durationSeconds?: number;
  quick: boolean;
  /** `--limits-only`: scenarios 1 (one stream) and 2 for the routers and their KEY_LIMITS=off twins only. */
  limitsOnly?: boolean;
  /** `--metrics-only`: the same for the routers and their METRICS_ENABLED=false twins. */
  metricsOnly?: boolean;
  /** `--data-plane`: scenarios 1-3 for the references and routers (each also on Node 24) only. */
  dataPlaneOnly?: boolean;
  machine: ReturnType<typeof machineSummary>;
  upstream: typeof UPSTREAM_PACING;
  notes: string[];
  errors: string[];
  scenarios: {
    addedTtfb?: TtfbResult;
    throughput?: ThroughputRow[];
    profiles?: ProfileResult[];
    slowStreams?: SlowStreamRow[];
    hotWallet?: HotWalletRow[];
    settlement?: SettlementRow;
    activity?: Array<ActivityRow & { seedSeconds?: number }>;
    /** Scenario 1b: each router against its feature-off twins, one request of each in turn. */
    pairedTtfb?: PairedTtfbRow[];
    /** Scenario 2p: each router and its feature-off twin in alternating slices of short requests. */
    pairedThroughput?: PairedThroughputRow[];
    /** Scenarios 1-2 with per-key limits on and off (KEY_LIMITS=off twins). */
    limits?: LimitsOverheadRow[];
    /** Scenarios 1-2 with metrics and logging on and off (METRICS_ENABLED=false twins). */
    metrics?: LimitsOverheadRow[];
    /** Scenario 8: the first byte through WAV 48 kHz → MP3/pcm conversion against MP3 relayed as is. */
    transcodeTtfb?: TranscodeTtfbResult;
  };
}

/** The commit the run was built from, read when it starts (others may commit while it runs). */
export function gitState(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
    const changes = execFileSync('git', ['status', '--porcelain'], { cwd: repositoryRoot, encoding: 'utf8' }).trim();
    return { commit, dirty: changes.length > 0 };
  } catch {
    return { commit: 'unknown', dirty: false };
  }
}

const SYSTEM_ORDER = [
  'direct', 'bare-proxy', 'gateway', 'router-embedded', 'router-embedded-nolimits', 'router-embedded-nometrics', 'router-embedded-node24',
  'router-scaled', 'router-scaled-nolimits', 'router-scaled-nometrics', 'router-scaled-node24', 'router-scaled-baseline',
  'router-embedded-ref', 'router-scaled-ref',
];

function charts(results: BenchResults) {
  const rows = results.scenarios.addedTtfb?.rows ?? [];
  const series = SYSTEM_ORDER.filter((system) => rows.some((row) => row.system === system));
  const latency = groupedBarChart({
    title: 'Time to first audio byte by concurrency',
    yLabel: 'ms (log scale)',
    logScale: true,
    series,
    groups: [...new Set(rows.map((row) => row.concurrency))].map((concurrency) => ({
      label: `${concurrency} stream${concurrency > 1 ? 's' : ''}`,
      bars: rows.filter((row) => row.concurrency === concurrency).map((row) => ({ series: row.system, value: row.p50, tick: row.p90, whisker: row.p99 })),
    })),
    note: 'bar = p50, tick = p90, whisker = p99',
  });
  const throughputRows = results.scenarios.throughput ?? [];
  const throughput = groupedBarChart({
    title: 'Short requests per second (4 KB audio, 64 connections)',
    yLabel: 'requests/s',
    series: SYSTEM_ORDER.filter((system) => throughputRows.some((row) => row.system === system)),
    groups: [{ label: 'requests/s', bars: throughputRows.map((row) => ({ series: row.system, value: row.requestsPerSecond })) }],
  });
  return { latency, throughput };
}

/** Writes every file and returns their paths relative to the repository. */
export function writeResults(results: BenchResults, { rerender = false } = {}): string[] {
  if (!rerender && !results.commit) Object.assign(results, gitState());
  // Quick, limits-only, metrics-only and data-plane runs are partial: they never replace the committed report or latest.json.
  const directory = path.join(repositoryRoot, 'bench', 'results', ...(results.quick || results.limitsOnly || results.metricsOnly || results.dataPlaneOnly ? ['quick'] : []));
  fs.mkdirSync(directory, { recursive: true });
  const stem = `${results.startedAt.slice(0, 10)}-${results.commit}`;
  const svg = charts(results);
  const files: Record<string, string> = {
    [`${stem}-ttfb.svg`]: svg.latency,
    [`${stem}-throughput.svg`]: svg.throughput,
    [`${stem}.md`]: renderMarkdown(results, { latency: `${stem}-ttfb.svg`, throughput: `${stem}-throughput.svg` }),
    'latest.json': `${JSON.stringify({ ...results, targets: checkTargets(results), report: `${stem}.md` }, null, 2)}\n`,
  };
  for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(directory, name), content);
  return Object.keys(files).map((name) => path.relative(repositoryRoot, path.join(directory, name)));
}
