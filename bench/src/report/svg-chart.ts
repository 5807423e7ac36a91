// A small SVG writer for the report's two charts: grouped bars with optional whiskers (p50 bar,
// p90 tick, p99 whisker), on a linear or logarithmic axis. Plain SVG 1.1, no scripts, no fonts loaded.

export interface Bar {
  series: string;
  value: number;
  /** Drawn as a tick (e.g. p90). */
  tick?: number;
  /** Drawn as a whisker from the bar's top (e.g. p99). */
  whisker?: number;
}

export interface BarGroup {
  label: string;
  bars: Bar[];
}

export interface ChartOptions {
  title: string;
  yLabel: string;
  groups: BarGroup[];
  series: string[];
  logScale?: boolean;
  note?: string;
}

const COLORS = ['#6b7280', '#2563eb', '#f59e0b', '#dc2626', '#16a34a', '#7c3aed'];
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const format = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value >= 1 ? value.toFixed(2) : value.toPrecision(2));

export function groupedBarChart(options: ChartOptions): string {
  const width = 880;
  const height = 420;
  const margin = { top: 50, right: 20, bottom: 80, left: 70 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const values = options.groups.flatMap((group) => group.bars.flatMap((bar) => [bar.value, bar.whisker ?? bar.value])).filter((value) => value > 0 && Number.isFinite(value));
  const maximum = Math.max(...values, 1e-3);
  const minimum = Math.min(...values, maximum);
  const logLow = Math.pow(10, Math.floor(Math.log10(minimum)));
  const logHigh = Math.pow(10, Math.ceil(Math.log10(maximum)));
  const linearHigh = niceCeiling(maximum);
  const y = (value: number) => {
    if (options.logScale) {
      const clamped = Math.max(value, logLow);
      return margin.top + plotHeight * (1 - (Math.log10(clamped) - Math.log10(logLow)) / (Math.log10(logHigh) - Math.log10(logLow) || 1));
    }
    return margin.top + plotHeight * (1 - value / linearHigh);
  };
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escape(options.title)}</text>`,
  ];
  const ticks = options.logScale ? logTicks(logLow, logHigh) : [0, 0.25, 0.5, 0.75, 1].map((fraction) => fraction * linearHigh);
  for (const tick of ticks) {
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(tick)}" y2="${y(tick)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${margin.left - 6}" y="${y(tick) + 4}" text-anchor="end">${format(tick)}</text>`);
  }
  parts.push(`<text transform="translate(16 ${margin.top + plotHeight / 2}) rotate(-90)" text-anchor="middle">${escape(options.yLabel)}</text>`);
  const groupWidth = plotWidth / Math.max(1, options.groups.length);
  const barWidth = Math.min(40, (groupWidth * 0.8) / Math.max(1, options.series.length));
  options.groups.forEach((group, groupIndex) => {
    const groupStart = margin.left + groupIndex * groupWidth + (groupWidth - barWidth * options.series.length) / 2;
    parts.push(`<text x="${margin.left + groupIndex * groupWidth + groupWidth / 2}" y="${height - margin.bottom + 18}" text-anchor="middle" font-weight="bold">${escape(group.label)}</text>`);
    options.series.forEach((series, seriesIndex) => {
      const bar = group.bars.find((candidate) => candidate.series === series);
      if (!bar || !Number.isFinite(bar.value)) return;
      const x = groupStart + seriesIndex * barWidth;
      const top = y(bar.value);
      const color = COLORS[seriesIndex % COLORS.length];
      parts.push(`<rect x="${x + 2}" y="${top}" width="${barWidth - 4}" height="${Math.max(0, margin.top + plotHeight - top)}" fill="${color}"><title>${escape(series)}: ${format(bar.value)}</title></rect>`);
      const middle = x + barWidth / 2;
      if (bar.whisker !== undefined && Number.isFinite(bar.whisker)) {
        parts.push(`<line x1="${middle}" x2="${middle}" y1="${top}" y2="${y(bar.whisker)}" stroke="#111827"/>`);
        parts.push(`<line x1="${middle - 5}" x2="${middle + 5}" y1="${y(bar.whisker)}" y2="${y(bar.whisker)}" stroke="#111827"/>`);
      }
      if (bar.tick !== undefined && Number.isFinite(bar.tick)) {
        parts.push(`<line x1="${middle - 3}" x2="${middle + 3}" y1="${y(bar.tick)}" y2="${y(bar.tick)}" stroke="#111827"/>`);
      }
      parts.push(`<text x="${middle}" y="${top - 4}" text-anchor="middle" font-size="9">${format(bar.value)}</text>`);
    });
  });
  const legendY = height - 34;
  options.series.forEach((series, index) => {
    const x = margin.left + index * 150;
    parts.push(`<rect x="${x}" y="${legendY}" width="12" height="12" fill="${COLORS[index % COLORS.length]}"/>`);
    parts.push(`<text x="${x + 16}" y="${legendY + 10}">${escape(series)}</text>`);
  });
  if (options.note) parts.push(`<text x="${margin.left}" y="${height - 8}" font-size="10" fill="#4b5563">${escape(options.note)}</text>`);
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

function niceCeiling(value: number): number {
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}

function logTicks(low: number, high: number): number[] {
  const ticks: number[] = [];
  for (let value = low; value <= high * 1.0001; value *= 10) ticks.push(value);
  return ticks;
}
