// Labelled counters and histograms whose series are plain numbers ("cells"). prom-client hashes the
// label object on every inc() and observe(), even through a cached labels() child: in a loaded data
// plane's profile that was ~17 µs per request. A cell is looked up once (callers keep it) and the hot
// path only adds to its numbers; the metric copies every cell into prom-client when it is scraped.
import { Counter, Histogram } from 'prom-client';
import type { MetricsRegistry } from './metrics-registry.js';

type Labels<Name extends string> = Record<Name, string>;

/** One series of a cell counter. */
export class CountCell {
  value = 0;
  constructor(readonly labels: Readonly<Record<string, string>>) {}
  inc(by = 1): void {
    if (by > 0) this.value += by;
  }
}

/** One series of a cell histogram: per-bucket counts (not cumulative), sum and count. */
export class ObserveCell {
  readonly buckets: number[];
  sum = 0;
  count = 0;
  constructor(readonly labels: Readonly<Record<string, string>>, private readonly bounds: readonly number[]) {
    this.buckets = bounds.map(() => 0);
  }
  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index++;
    if (index < bounds.length) this.buckets[index]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

export interface CellMetric<Cell> {
  /** The series of these label values (in labelNames order), created on first use: keep it. */
  cell(...values: string[]): Cell;
}

interface CellOptions<Name extends string> {
  name: string;
  help: string;
  labelNames: readonly Name[];
  register: MetricsRegistry;
}

function cellsOf<Name extends string, Cell>(labelNames: readonly Name[], create: (labels: Labels<Name>) => Cell) {
  const cells = new Map<string, Cell>();
  return {
    cells,
    cell(...values: string[]): Cell {
      if (values.length !== labelNames.length) throw new TypeError(`expected ${labelNames.length} label values, got ${values.length}`);
      const key = values.join('\u0000');
      let cell = cells.get(key);
      if (cell === undefined) {
        const labels = Object.fromEntries(labelNames.map((name, index) => [name, values[index]!])) as Labels<Name>;
        cells.set(key, (cell = create(labels)));
      }
      return cell;
    },
  };
}

export function cellCounter<Name extends string>(options: CellOptions<Name>): CellMetric<CountCell> {
  const { cells, cell } = cellsOf(options.labelNames, (labels) => new CountCell(labels));
  new Counter({
    name: options.name, help: options.help, labelNames: options.labelNames, registers: [options.register],
    collect() {
      this.reset();
      for (const { labels, value } of cells.values()) this.inc(labels as Labels<Name>, value);
    },
  });
  return { cell };
}

/** prom-client's per-series histogram state (Histogram#zero creates it; collect fills it in). */
interface HistogramSeries {
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

export function cellHistogram<Name extends string>(options: CellOptions<Name> & { buckets: readonly number[] }): CellMetric<ObserveCell> {
  const bounds = [...options.buckets].sort((a, b) => a - b);
  const { cells, cell } = cellsOf(options.labelNames, (labels) => new ObserveCell(labels, bounds));
  new Histogram({
    name: options.name, help: options.help, labelNames: options.labelNames, buckets: bounds, registers: [options.register],
    collect() {
      this.reset();
      const all = [...cells.values()];
      for (const series of all) this.zero(series.labels as Labels<Name>);
      // zero() added one state per series, in this order, to prom-client's plain object of series.
      const states = Object.values((this as unknown as { hashMap: Record<string, HistogramSeries> }).hashMap);
      if (states.length !== all.length) throw new Error(`${options.name}: prom-client holds ${states.length} series for ${all.length} cells`);
      all.forEach((series, position) => {
        const state = states[position]!;
        bounds.forEach((bound, index) => (state.bucketValues[bound] = series.buckets[index]!));
        state.sum = series.sum;
        state.count = series.count;
      });
    },
  });
  return { cell };
}
