// Percentiles the way the report states them: nearest-rank on the sorted samples, with the count.

export interface Percentiles {
  n: number;
  p50: number;
  p90: number;
  p99: number;
}

export function percentiles(values: number[]): Percentiles {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (fraction: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]! : Number.NaN);
  return { n: sorted.length, p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

export const round = (value: number, digits = 2) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);

export function ratio(value: number, reference: number): number {
  return reference > 0 ? round(value / reference, 2) : Number.NaN;
}

/** What a feature costs in throughput, in percent: how much lower the "on" rate is than the "off" rate (NaN without an "off" rate). */
export function costPercent(onRate: number, offRate: number): number {
  return offRate > 0 ? ((offRate - onRate) / offRate) * 100 : Number.NaN;
}
