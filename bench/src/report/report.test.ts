import { describe, expect, it } from 'vitest';
import { profileThreadId, shortLocation, summarizeProfile, type CpuProfile } from './cpu-profile-summary.js';
import { renderMarkdown } from './markdown.js';
import { percentiles } from './stats.js';
import { groupedBarChart } from './svg-chart.js';
import { checkTargets } from './targets-check.js';
import type { BenchResults } from './write-results.js';

/** The report of a run that has only the given scenarios. */
const reportOf = (scenarios: object) => renderMarkdown({
  startedAt: '2026-11-30T00:00:00.000Z', commit: 'abc1234', dirty: false, quick: true, machine: {}, upstream: {}, notes: [], errors: [], scenarios,
} as unknown as BenchResults, { latency: 'l.svg', throughput: 't.svg' });

describe('report helpers', () => {
  it('takes nearest-rank percentiles and says how many samples are behind them', () => {
    const values = Array.from({ length: 100 }, (_, index) => 100 - index);
    expect(percentiles(values)).toEqual({ n: 100, p50: 50, p90: 90, p99: 99 });
    expect(percentiles([]).n).toBe(0);
  });

  it('names the package a profiled function lives in', () => {
    expect(shortLocation('file:///repo/node_modules/.pnpm/undici@7.30.2/node_modules/undici/lib/core/util.js')).toEqual({ where: 'undici/lib/core/util.js', owner: 'undici' });
    expect(shortLocation('file:///repo/apps/data-plane/dist/routes/speech-route.js').owner).toBe('@voice-router/data-plane');
    expect(shortLocation('node:events').owner).toBe('node core');
    expect(shortLocation('').owner).toBe('(native / V8)');
    expect(shortLocation('wasm://wasm/022a9842').owner).toBe('(WebAssembly)');
  });

  it("tells each thread's profile by the name Node gives it", () => {
    expect(profileThreadId('CPU.20261130.192227.14790.0.001.cpuprofile')).toBe(0);
    expect(profileThreadId('CPU.20261130.192234.14790.1.002.cpuprofile')).toBe(1);
    expect(profileThreadId('profile.cpuprofile')).toBeUndefined();
  });

  it("reports a process's worker threads beside its main thread, with their share of the process's busy time", () => {
    const summary = (name: string, busyMs: number) => ({
      totalMs: busyMs + 100, idleMs: 100, windowed: true,
      topFunctions: [{ name, where: '', selfMs: busyMs, percent: 100 }], byPackage: [{ name: 'other', where: '', selfMs: busyMs, percent: 100 }],
    });
    const report = reportOf({ profiles: [{ mode: 'embedded', requests: 10, seconds: 1, ...summary('streamAudio', 300), threads: [{ thread: 1, ...summary('execProtocolRawSync', 100) }] }] });
    expect(report).toContain('**CPU profile of the embedded data plane** (`--cpu-prof`, 10 requests in 1.0 s, 300 ms busy of 400 ms while that load ran');
    expect(report).toContain("**Worker thread 1 of the embedded data plane's process** (100 ms busy of 200 ms while the same load ran, 25 % of the busy time");
    expect(report).toContain('| `execProtocolRawSync` |  | 100 | 100 % |');
  });

  it("shows each round's opening slice apart, beside the bare proxy's, and nothing of it in reports from before", () => {
    const row = (system: string, p99: number, afterPause?: object) => ({
      system, concurrency: 50, size: 'stream', n: 1500, p50: 2, p90: 10, p99, errors: 0, statuses: {}, requestsPerSecond: 240, meanBytes: 32_768,
      ...(afterPause ? { afterPause } : {}),
    });
    const withOpenings = reportOf({
      addedTtfb: {
        rows: [row('bare-proxy', 23, { n: 250, p50: 2.5, p90: 9, p99: 20 }), row('router-scaled', 40, { n: 240, p50: 3, p90: 28, p99: 60 })],
        added: [],
        openingSeconds: 0.2,
      },
    });
    expect(withOpenings).toContain('**After a pause** (not judged): every round above opened with a slice of the same load, 0.2 s long');
    expect(withOpenings).toContain('| router-scaled | 50 | 240 | 3.00 | 28.00 | 60.00 | 3.00 |');
    expect(withOpenings).toContain('| bare-proxy | 50 | 250 | 2.50 | 9.00 | 20.00 | 1.00 |');
    const before = reportOf({ addedTtfb: { rows: [row('bare-proxy', 23), row('router-scaled', 40)], added: [] } });
    expect(before).toContain('| router-scaled | 1500 | 2.00 | 10.00 | 40.00 |');
    expect(before).not.toContain('After a pause');
  });

  /** Scenario 4's row with the fields every report has, and what a test adds. */
  const slowStreamRow = (system: string, extra: object = {}) => ({
    system, streams: 1000, streaming: 1000, bodyBytes: 200 * 1048576, windowSeconds: 10, statuses: { 200: 1000 },
    rssBaselineMB: 197.1, rssPeakMB: 289.5, rssPerStreamKB: 94.6, kernelTcpPeakMB: 400, ...extra,
  });

  it("shows each router's peak while it started beside its streams' peak, and nothing of it in reports from before", () => {
    const withStart = reportOf({ slowStreams: [slowStreamRow('bare-proxy'), slowStreamRow('router-embedded-node24', { rssStartupPeakMB: 709.4 })] });
    expect(withStart).toContain('**At start.**');
    expect(withStart).toContain('| router-embedded-node24 | 709.4 | 197.1 | 289.5 |');
    expect(withStart).not.toContain('| bare-proxy | 709.4');
    const before = reportOf({ slowStreams: [slowStreamRow('bare-proxy'), slowStreamRow('router-embedded-node24')] });
    expect(before).toContain('| router-embedded-node24 | 1000 | 1000 | 200.0 | 197.1 | 289.5 | 94.6 |');
    expect(before).not.toContain('At start');
  });

  it('shows the SYNs the kernel dropped during each system\'s streams, and a dash in reports from before they were counted', () => {
    const counted = reportOf({ slowStreams: [slowStreamRow('bare-proxy', { droppedSyns: 0 }), slowStreamRow('router-scaled-node24', { droppedSyns: 1023 })] });
    expect(counted).toContain('SYNs dropped: connection attempts the kernel refused');
    expect(counted).toContain('| 400 | 1023 | 200×1000 |');
    expect(counted).toContain('| 400 | 0 | 200×1000 |');
    const before = reportOf({ slowStreams: [slowStreamRow('bare-proxy')] });
    expect(before).not.toContain('SYNs dropped: connection attempts');
    expect(before).toContain('| 400 | — | 200×1000 |');
  });

  it("shows each system's accept queue peak and how its main thread got the CPU, and dashes in reports from before they were read", () => {
    const row = (system: string, extra: object = {}) => slowStreamRow(system, { droppedSyns: 0, ...extra });
    const read = reportOf({ slowStreams: [
      row('bare-proxy', { acceptQueuePeak: 0, acceptQueueSeconds: 0, mainThread: { onCpuPercent: 41.26, waitingForCpuPercent: 3 } }),
      row('router-embedded-node24', { acceptQueuePeak: 590, acceptQueueSeconds: 2361.4, mainThread: { onCpuPercent: 38.4, waitingForCpuPercent: 44.16 } }),
    ] });
    expect(read).toContain('Accept queue peak: the most connections');
    expect(read).toContain('| 200×1000 | 590 | 2361 | 38.4 / 44.2 |');
    expect(read).toContain('| 200×1000 | 0 | 0 | 41.3 / 3.0 |');
    const before = reportOf({ slowStreams: [row('bare-proxy')] });
    expect(before).not.toContain('Accept queue peak: the most');
    expect(before).toContain('| 200×1000 | — | — | — |');
  });

  /** Scenario 6's row as reports before session 38 have it, and how a report with it renders. */
  const settlement = {
    jobs: 100, seedSeconds: 1, enqueueSeconds: 0.1, settlementsPerJob: 50, windowMs: 50, commitSeconds: 1, commitsPerSecond: 100, wallSeconds: 2,
    cpuSeconds: { worker: 1, postgres: 2, redis: 0.1 }, accounts: 4, auditConsistent: true, pendingAfter: 0,
  };
  const render = (row: object) => reportOf({ settlement: row });

  it("reports the worker's memory while it drains the settlement backlog, and a dash in reports from before it was measured", () => {
    expect(render({ ...settlement, workerRssPeakMB: 197.6 })).toContain('| 100 | 100 | 1 | 2 | 1 / 2 / 0.1 | 197.6 | consistent | 0 |');
    expect(render(settlement)).toContain('| 100 | 100 | 1 | 2 | 1 / 2 / 0.1 | — | consistent | 0 |');
  });

  it("names the worker's partitions by account, and nothing in reports from before there were any", () => {
    expect(render({ ...settlement, partitions: 2 })).toContain('commits written up to 200 per transaction, in 2 partitions by account written at once) starts.');
    expect(render(settlement)).toContain('commits written up to 200 per transaction) starts.');
  });

  it("puts each hot wallet beside the same router's and the bare proxy's short requests/s of the same run, and the ledger alone", () => {
    const wallet = (mode: string, reservationsPerSecond: number, ledgerAlone?: object, warmup?: object) => ({
      mode, concurrency: 200, successes: 100, rejected: 200, otherErrors: 0, seconds: 1, reservationsPerSecond, ledgerAlone, warmup,
      check: { balanceMicros: 0, expectedBalanceMicros: 0, reservedMicros: 0, auditConsistent: true, lowestBalanceAfterMicros: 0, passed: true },
    });
    const rate = (system: string, requestsPerSecond: number) => ({ system, requestsPerSecond, requests: 1000, connections: 64, latencyMs: {}, cpuSeconds: {} });
    const report = reportOf({
      hotWallet: [
        wallet('embedded', 4_044, { perSecond: 13_178, admitted: 30_000, exact: true, reservations: 30_000 }, { seconds: 4.1, firstPerSecond: 987, lastPerSecond: 4_100 }),
        wallet('scaled', 3_776, { perSecond: 31_926, admitted: 29_999, exact: false, reservations: 30_000 }),
      ],
      throughput: [rate('bare-proxy', 7_542), rate('router-embedded', 4_430), rate('router-scaled', 5_077)],
    });
    expect(report).toContain('| embedded | 4.1; 987 → 4,100 | 100 | 200 | 0 | 1 | 4,044 | 4,430 | 91 % | 7,542 | 13,178; exact | 0 (0) | 0 | consistent | 0 | correct |');
    expect(report).toContain('| scaled | — | 100 | 200 | 0 | 1 | 3,776 | 5,077 | 74 % | 7,542 | 31,926; **WRONG** | 0 (0) | 0 | consistent | 0 | correct |');
    expect(report).toContain('warm the router up on another account in slices until two in a row agree within a tenth');
    expect(report).toContain('so that path sets the rate. Beside it: what the same router served of short requests in scenario 2');
    expect(report).toContain('200 callers in the bench process reserve on one wallet funded for 30000 reservations');
    // A run without scenario 2 (`--ledger-only`) has no ceiling to show.
    const alone = reportOf({ hotWallet: [wallet('scaled', 3_776)] });
    expect(alone).toContain('| scaled | — | 100 | 200 | 0 | 1 | 3,776 | — | — | — | — | 0 (0) | 0 | consistent | 0 | correct |');
    expect(alone).not.toContain('warm the router up');
    expect(alone).not.toContain('so that path sets the rate');
    expect(alone).not.toContain('The ledger alone');
  });

  it("counts only the profile's samples inside the measured load's window, or all of them when none is inside", () => {
    const frame = (id: number, functionName: string, url: string) => ({ id, callFrame: { functionName, url, lineNumber: 0 } });
    // Start-up (module loading) from t=1,000 to 1,400 µs, then the load: 6 samples of 100 µs each.
    const profile: CpuProfile = {
      nodes: [frame(1, '(idle)', ''), frame(2, 'compileSourceTextModule', 'node:internal/modules/esm/utils'), frame(3, 'streamAudio', 'file:///r/apps/data-plane/dist/routes/speech-route.js')],
      startTime: 1_000,
      samples: [2, 2, 2, 2, 3, 3, 1, 3, 3, 3],
      timeDeltas: [100, 100, 100, 100, 100, 100, 100, 100, 100, 100],
    };
    const whole = summarizeProfile(profile);
    expect(whole.windowed).toBe(false);
    expect(whole.topFunctions.map((entry) => [entry.name, entry.percent])).toEqual([['streamAudio', 55.6], ['compileSourceTextModule', 44.4]]);
    // The samples taken at 1,500 µs and later: five of streamAudio, one idle.
    const load = summarizeProfile(profile, 15, { startMicros: 1_450, endMicros: 2_100 });
    expect(load.windowed).toBe(true);
    expect(load.topFunctions.map((entry) => [entry.name, entry.percent])).toEqual([['streamAudio', 100]]);
    expect(load.byPackage.map((entry) => entry.name)).toEqual(['@voice-router/data-plane']);
    // A window on another clock: nothing inside it, so the whole profile, marked as such.
    expect(summarizeProfile(profile, 15, { startMicros: 10_000_000, endMicros: 20_000_000 })).toEqual(whole);
  });

  it('writes a self-contained SVG with one bar per value, escaping labels', () => {
    const svg = groupedBarChart({
      title: 'A <chart>', yLabel: 'ms', logScale: true, series: ['a', 'b'],
      groups: [{ label: '1 stream', bars: [{ series: 'a', value: 0.5, whisker: 2 }, { series: 'b', value: 3 }] }],
    });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('A &lt;chart&gt;');
    expect(svg.match(/<rect x=/g)).toHaveLength(2 + 2);
    expect(svg).not.toContain('NaN');
  });

  it('judges each target and leaves unmeasured ones open', () => {
    const results = {
      scenarios: {
        settlement: { jobs: 10, commitsPerSecond: 6000 },
        activity: [{ mode: 'scaled', endpoint: 'GET /v1/usage', ledgerRows: 5, n: 0, p50: Number.NaN }],
      },
    } as unknown as BenchResults;
    const checks = checkTargets(results);
    // Issue 11: at least 20,000 commits/s.
    expect(checks.find((check) => check.scenario === '6')?.met).toBe(false);
    expect(checks.find((check) => check.scenario === '7')?.met).toBeUndefined();
  });

  it("judges issue 11's table: the bare proxy is the reference, targets differ by mode, feature-off twins are not judged", () => {
    const ttfb = (system: string, concurrency: number, p50: number, p99: number, errors = 0) => ({ system, concurrency, p50, p99, errors });
    const rate = (system: string, requestsPerSecond: number, cpuSeconds: Record<string, number>) => ({ system, requestsPerSecond, requests: 1000, cpuMicrosPerRequest: cpuSeconds['data plane'] ? cpuSeconds['data plane'] * 1000 : Number.NaN, cpuSeconds });
    const results = {
      scenarios: {
        addedTtfb: {
          rows: [
            ttfb('bare-proxy', 1, 0.4, 1), ttfb('router-scaled', 1, 0.65, 2), ttfb('router-embedded', 1, 1.1, 3), ttfb('router-scaled-nolimits', 1, 0.5, 1),
            ttfb('bare-proxy', 50, 4, 40), ttfb('router-scaled', 50, 6, 80), ttfb('router-embedded', 50, 7, 81),
            ttfb('bare-proxy', 500, 100, 500), ttfb('router-scaled', 500, 150, 900, 0), ttfb('router-embedded', 500, 150, 900, 2),
          ],
          added: [],
        },
        throughput: [
          rate('bare-proxy', 10_000, { proxy: 1 }),
          rate('router-scaled', 6_000, { 'data plane': 0.14, worker: 0.1, postgres: 0.2, redis: 0.05, upstream: 5 }),
          rate('router-embedded', 3_900, { 'data plane': 0.4 }),
        ],
        hotWallet: [{ mode: 'scaled', reservationsPerSecond: 9_999, check: { passed: true } }, { mode: 'embedded', reservationsPerSecond: 5_000, check: { passed: true } }],
      },
    } as unknown as BenchResults;
    const checks = checkTargets(results);
    const verdict = (metric: string, system: string) => checks.find((check) => check.metric.startsWith(metric) && check.system === system)?.met;
    expect(verdict('added TTFB p50 at 1 stream', 'router-scaled')).toBe(true); // +0.25 ≤ 0.3
    expect(verdict('added TTFB p50 at 1 stream', 'router-embedded')).toBe(false); // +0.7 > 0.6
    expect(checks.some((check) => check.system === 'router-scaled-nolimits')).toBe(false);
    expect(verdict('TTFB p50 at 50 streams', 'router-scaled')).toBe(true); // 1.5×
    expect(verdict('TTFB p99 at 50 streams', 'router-embedded')).toBe(false); // 2.025×
    expect(verdict('500 streams: failed requests', 'router-embedded')).toBe(false);
    expect(verdict('TTFB p99 at 500 streams', 'router-scaled')).toBe(true); // 1.8×
    expect(verdict('short requests/s', 'router-scaled')).toBe(true); // 60 %
    expect(verdict('short requests/s', 'router-embedded')).toBe(false); // 39 %
    expect(verdict('CPU per request, data plane', 'router-scaled')).toBe(true); // 140 µs
    expect(checks.find((check) => check.metric === 'CPU per request, whole system' && check.system === 'router-scaled')?.value).toBe(490);
    expect(verdict('reservations/s', 'router-scaled')).toBe(false);
    expect(verdict('reservations/s', 'router-embedded')).toBe(true);
  });
});

describe('the price of per-key limits', () => {
  it('compares each router with its KEY_LIMITS=off twin and judges the two targets', async () => {
    const { limitsOverhead } = await import('./limits-overhead.js');
    const ttfb = (system: string, p50: number) => ({ system, concurrency: 1, p50 });
    const rate = (system: string, requestsPerSecond: number) => ({ system, requestsPerSecond, cpuMicrosPerRequest: 100 });
    const rows = limitsOverhead(
      { rows: [ttfb('router-scaled', 2.2), ttfb('router-scaled-nolimits', 2.0), ttfb('router-embedded', 3)], added: [] } as never,
      [rate('router-scaled', 900), rate('router-scaled-nolimits', 1000), rate('router-embedded', 500)] as never,
    );
    expect(rows).toEqual([expect.objectContaining({ mode: 'scaled', addedTtfbP50Ms: 0.2, throughputCostPercent: 10 })]);
    const checks = checkTargets({ scenarios: { limits: rows } } as unknown as BenchResults).filter((check) => check.scenario === '2b');
    expect(checks.map((check) => check.met)).toEqual([true, true]);
  });
});

describe('the paired first-byte measurement', () => {
  it('takes the paired difference over the rounds-based one when pairs were measured, and keeps both', async () => {
    const { limitsOverhead } = await import('./limits-overhead.js');
    const ttfb = (system: string, p50: number) => ({ system, concurrency: 1, p50 });
    const rate = (system: string, requestsPerSecond: number) => ({ system, requestsPerSecond, cpuMicrosPerRequest: 100 });
    const paired = [{ on: 'router-scaled', off: 'router-scaled-nolimits', pairs: 4000, p50OnMs: 1.3, p50OffMs: 1.1, addedP50Ms: 0.2, medianPairDifferenceMs: 0.19, errors: 0 }];
    const [row] = limitsOverhead(
      { rows: [ttfb('router-scaled', 2.9), ttfb('router-scaled-nolimits', 2.0)], added: [] } as never,
      [rate('router-scaled', 1000), rate('router-scaled-nolimits', 1000)] as never,
      { ttfb: paired } as never,
    );
    expect(row).toEqual(expect.objectContaining({ addedTtfbP50Ms: 0.2, ttfbMethod: 'paired', pairs: 4000, roundsAddedTtfbP50Ms: 0.9, ttfbP50OnMs: 1.3 }));
    const [withoutPairs] = limitsOverhead(
      { rows: [ttfb('router-scaled', 2.9), ttfb('router-scaled-nolimits', 2.0)], added: [] } as never,
      [rate('router-scaled', 1000), rate('router-scaled-nolimits', 1000)] as never,
    );
    expect(withoutPairs).toEqual(expect.objectContaining({ addedTtfbP50Ms: 0.9, ttfbMethod: 'rounds', pairs: 0 }));
  });
});

describe('the paired throughput measurement', () => {
  it('takes the slices over the rounds when they were measured, and keeps the rounds-based cost beside them', async () => {
    const { metricsOverhead } = await import('./limits-overhead.js');
    const { checkTargets } = await import('./targets-check.js');
    const ttfb = (system: string, p50: number) => ({ system, concurrency: 1, p50 });
    const rate = (system: string, requestsPerSecond: number) => ({ system, requestsPerSecond, cpuMicrosPerRequest: 100 });
    const slices = [{
      on: 'router-embedded', off: 'router-embedded-nometrics', connections: 64, slices: 24, sliceSeconds: 1.5, requestsOn: 48_000, requestsOff: 49_000,
      requestsPerSecondOn: 1333, requestsPerSecondOff: 1361, costPercent: 2.1, medianPairCostPercent: 1.8, cpuMicrosPerRequestOn: 410, cpuMicrosPerRequestOff: 400, non2xx: 0, errors: 0,
    }];
    const inputs = [
      { rows: [ttfb('router-embedded', 1), ttfb('router-embedded-nometrics', 1)], added: [] } as never,
      [rate('router-embedded', 800), rate('router-embedded-nometrics', 1000)] as never,
    ] as const;
    const [row] = metricsOverhead(...inputs, { throughput: slices as never });
    expect(row).toEqual(expect.objectContaining({
      throughputMethod: 'paired', throughputCostPercent: 2.1, roundsThroughputCostPercent: 20, slices: 24, medianSliceCostPercent: 1.8,
      requestsPerSecondOn: 1333, requestsPerSecondOff: 1361, cpuMicrosPerRequestOn: 410,
    }));
    expect(checkTargets({ scenarios: { metrics: [row] } } as unknown as BenchResults).find((check) => check.scenario === '2c')?.met).toBe(true);
    const [rounds] = metricsOverhead(...inputs);
    expect(rounds).toEqual(expect.objectContaining({ throughputMethod: 'rounds', throughputCostPercent: 20, slices: 0 }));
    expect(checkTargets({ scenarios: { metrics: [rounds] } } as unknown as BenchResults).find((check) => check.scenario === '2c')?.met).toBe(false);
  });

  it('plans strictly alternating slices with the same mean position in time for both sides', async () => {
    const { slicePlan } = await import('../scenarios/paired-throughput.js');
    const flat = slicePlan(30).flat();
    expect(flat).toHaveLength(60);
    const repeats = flat.filter((side, index) => index > 0 && side === flat[index - 1]);
    expect(repeats).toHaveLength(1);
    const meanPosition = (side: number) => flat.reduce<number>((sum, value, index) => sum + (value === side ? index : 0), 0) / 30;
    expect(meanPosition(0)).toBe(meanPosition(1));
  });

  it('alternates the two sides slice by slice and pools each side\'s requests', async () => {
    const http = await import('node:http');
    const { runPairedThroughput } = await import('../scenarios/paired-throughput.js');
    const order: string[] = [];
    // Two servers; "on" answers each request after 4 ms of waiting, "off" at once.
    const serve = (name: string, delayMs: number) => new Promise<import('node:http').Server>((resolve) => {
      const server = http.createServer((request, response) => {
        if (order.at(-1) !== name) order.push(name);
        request.resume();
        request.on('end', () => setTimeout(() => response.end('audio'), delayMs));
      });
      server.listen(0, '127.0.0.1', () => resolve(server));
    });
    const servers = await Promise.all([serve('on', 4), serve('off', 0)]);
    const target = (system: string, server: import('node:http').Server) => ({
      system,
      baseUrl: `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}`,
      speech: () => ({ path: '/v1/audio/speech', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      cpuGroups: () => ({ proxy: () => [process.pid] }),
    });
    try {
      const [row] = await runPairedThroughput(
        [{ on: target('router-scaled-ref', servers[0]) as never, off: target('router-scaled-nometrics', servers[1]) as never }],
        { connections: 4, slices: 2, sliceSeconds: 1, warmupSeconds: 0 }, () => undefined,
      );
      // Slices on-off, then off-on: consecutive requests to the same side are one entry here.
      expect(order).toEqual(['on', 'off', 'on']);
      expect(row).toEqual(expect.objectContaining({ on: 'router-scaled-ref', off: 'router-scaled-nometrics', slices: 2, non2xx: 0, errors: 0 }));
      expect(row!.requestsOff).toBeGreaterThan(row!.requestsOn);
      expect(row!.costPercent).toBeGreaterThan(30);
      expect(row!.medianPairCostPercent).toBeGreaterThan(30);
      // autocannon runs whole seconds: two slices of one second per side.
      expect(row!.requestsPerSecondOn).toBeGreaterThan(row!.requestsOn / 2.5);
      expect(row!.requestsPerSecondOn).toBeLessThan(row!.requestsOn / 1.5);
      expect(row!.cpuMicrosPerRequestOn).toBeGreaterThan(0);
    } finally {
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    }
  });
});

describe('the reference twin', () => {
  it('is the "on" side of a feature comparison when the run has one', async () => {
    const { metricsOverhead } = await import('./limits-overhead.js');
    const ttfb = (system: string, p50: number) => ({ system, concurrency: 1, p50 });
    const rate = (system: string, requestsPerSecond: number) => ({ system, requestsPerSecond, cpuMicrosPerRequest: 100 });
    const [row] = metricsOverhead(
      { rows: [ttfb('router-scaled', 3), ttfb('router-scaled-ref', 2), ttfb('router-scaled-nometrics', 1.9)], added: [] } as never,
      [rate('router-scaled', 800), rate('router-scaled-ref', 1000), rate('router-scaled-nometrics', 1020)] as never,
    );
    expect(row).toEqual(expect.objectContaining({ onSystem: 'router-scaled-ref', requestsPerSecondOn: 1000, throughputCostPercent: 2, addedTtfbP50Ms: 0.1 }));
  });
});
