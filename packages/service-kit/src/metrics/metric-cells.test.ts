import { Counter, Histogram } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { cellCounter, cellHistogram } from './metric-cells.js';
import { createMetricsRegistry } from './metrics-registry.js';

const series = (text: string, name: string) => text.split('\n').filter((line) => line.startsWith(name)).sort();

describe('metric cells', () => {
  it('scrape exactly as prom-client counters and histograms fed the same values', async () => {
    const cells = createMetricsRegistry({ defaultMetrics: false });
    const plain = createMetricsRegistry({ defaultMetrics: false });
    const labelNames = ['route', 'status'] as const;
    const counter = cellCounter({ name: 'c_total', help: 'h', labelNames, register: cells });
    const reference = new Counter({ name: 'c_total', help: 'h', labelNames, registers: [plain] });
    const buckets = [0.01, 0.1, 1];
    const histogram = cellHistogram({ name: 'h_seconds', help: 'h', labelNames: ['provider'] as const, buckets, register: cells });
    const referenceHistogram = new Histogram({ name: 'h_seconds', help: 'h', labelNames: ['provider'] as const, buckets, registers: [plain] });

    const ok = counter.cell('/a', '200');
    for (let i = 0; i < 5; i++) ok.inc();
    counter.cell('/a', '402').inc(3);
    expect(counter.cell('/a', '200')).toBe(ok);
    reference.labels('/a', '200').inc(5);
    reference.labels('/a', '402').inc(3);
    const observations: Array<[string, number]> = [['openai', 0.005], ['openai', 0.01], ['openai', 0.5], ['openai', 7], ['cartesia', 0.05]];
    for (const [provider, value] of observations) {
      histogram.cell(provider).observe(value);
      referenceHistogram.labels(provider).observe(value);
    }
    histogram.cell('openai').observe(Number.NaN);

    const [mine, theirs] = [await cells.metrics(), await plain.metrics()];
    expect(series(mine, 'c_total')).toEqual(series(theirs, 'c_total'));
    expect(series(mine, 'h_seconds')).toEqual(series(theirs, 'h_seconds'));
    expect(mine).toContain('h_seconds_bucket{le="+Inf",provider="openai"} 4');
    expect(mine).toContain('c_total{route="/a",status="200"} 5');

    // Later increments show at the next scrape; a second scrape does not double anything.
    ok.inc();
    histogram.cell('cartesia').observe(0.2);
    const again = await cells.metrics();
    expect(again).toContain('c_total{route="/a",status="200"} 6');
    expect(again).toContain('h_seconds_count{provider="cartesia"} 2');
    expect(again).toContain('h_seconds_count{provider="openai"} 4');
  });

  it('refuses a wrong number of label values', () => {
    const counter = cellCounter({ name: 'x_total', help: 'h', labelNames: ['a', 'b'] as const, register: createMetricsRegistry({ defaultMetrics: false }) });
    expect(() => counter.cell('only-one')).toThrow(TypeError);
  });
});
