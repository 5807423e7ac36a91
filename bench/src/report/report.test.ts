import { describe, expect, it } from 'vitest';
import { shortLocation } from './cpu-profile-summary.js';
import { percentiles } from './stats.js';
import { groupedBarChart } from './svg-chart.js';
import { checkTargets } from './targets-check.js';
import type { BenchResults } from './write-results.js';

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
    expect(checks.find((check) => check.scenario === '6')?.met).toBe(true);
    expect(checks.find((check) => check.scenario === '7')?.met).toBeUndefined();
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
      paired as never,
    );
    expect(row).toEqual(expect.objectContaining({ addedTtfbP50Ms: 0.2, ttfbMethod: 'paired', pairs: 4000, roundsAddedTtfbP50Ms: 0.9, ttfbP50OnMs: 1.3 }));
    const [withoutPairs] = limitsOverhead(
      { rows: [ttfb('router-scaled', 2.9), ttfb('router-scaled-nolimits', 2.0)], added: [] } as never,
      [rate('router-scaled', 1000), rate('router-scaled-nolimits', 1000)] as never,
    );
    expect(withoutPairs).toEqual(expect.objectContaining({ addedTtfbP50Ms: 0.9, ttfbMethod: 'rounds', pairs: 0 }));
  });
});
