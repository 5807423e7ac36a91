// Spend per day as a stacked bar chart drawn on the server as inline SVG: no script, no library,
// readable by assistive technology through its title/description and a tooltip title per bar.
import type { ConsoleUsage } from '../console-services.js';
import { formatMicros } from '../money.js';

// Okabe–Ito colours: distinguishable with the common kinds of colour blindness.
const palette = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#56B4E9', '#D55E00', '#F0E442', '#000000'];

export function colourOf(index: number): string {
  return palette[index % palette.length] ?? '#000000';
}

/** The UTC days of the window, oldest first, plus any day the data has outside it. */
export function chartDays(days: number, now: Date, byDay: ConsoleUsage['byDay']): string[] {
  const result = new Set<string>();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  for (let offset = days - 1; offset >= 0; offset--) result.add(new Date(today - offset * 86_400_000).toISOString().slice(0, 10));
  for (const row of byDay) result.add(row.day);
  return [...result].sort();
}

/** A round axis top and step (1, 2 or 5 × 10^k micros) giving at most 4 steps. */
export function niceScale(maxMicros: number): { top: number; step: number } {
  if (maxMicros <= 0) return { top: 0, step: 0 };
  let magnitude = 1;
  while (magnitude * 10 <= maxMicros / 4) magnitude *= 10;
  for (const factor of [1, 2, 5, 10]) {
    const step = magnitude * factor;
    if (maxMicros / step <= 4) return { top: Math.ceil(maxMicros / step) * step, step };
  }
  const step = magnitude * 20;
  return { top: Math.ceil(maxMicros / step) * step, step };
}

export function UsageChart(props: { usage: ConsoleUsage; days: number; providers: string[]; now: Date }) {
  const dayList = chartDays(props.days, props.now, props.usage.byDay);
  const cost = new Map<string, Map<string, { cost: number; requests: number }>>();
  for (const row of props.usage.byDay) {
    const perProvider = cost.get(row.day) ?? new Map<string, { cost: number; requests: number }>();
    const previous = perProvider.get(row.provider) ?? { cost: 0, requests: 0 };
    perProvider.set(row.provider, { cost: previous.cost + row.costMicros, requests: previous.requests + row.requests });
    cost.set(row.day, perProvider);
  }
  const totals = dayList.map((day) => [...(cost.get(day)?.values() ?? [])].reduce((sum, entry) => sum + entry.cost, 0));
  const { top, step } = niceScale(Math.max(0, ...totals));
  const width = 760, height = 260, left = 78, right = 12, topPad = 14, bottom = 30;
  const plotWidth = width - left - right, plotHeight = height - topPad - bottom;
  const band = plotWidth / dayList.length;
  const barWidth = Math.max(1, Math.min(40, band * 0.72));
  const y = (micros: number) => topPad + plotHeight - (top === 0 ? 0 : (micros / top) * plotHeight);
  const labelEvery = Math.ceil(dayList.length / 8);
  const ticks: number[] = [];
  for (let value = 0; step > 0 && value <= top; value += step) ticks.push(value);
  const total = totals.reduce((sum, value) => sum + value, 0);
  const summary = `Spend per day over the last ${props.days} day${props.days === 1 ? '' : 's'}, stacked by provider. Total ${formatMicros(total)}.`;

  return (
    <figure class="chart-figure">
      <svg class="chart" viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="chart-title chart-desc">
        <title id="chart-title">Spend per day by provider</title>
        <desc id="chart-desc">{summary}</desc>
        {(ticks.length ? ticks : [0]).map((tick) => (
          <g>
            <line class="gridline" x1={left} x2={width - right} y1={y(tick)} y2={y(tick)} />
            <text x={left - 6} y={y(tick) + 4} text-anchor="end">{formatMicros(tick)}</text>
          </g>
        ))}
        {dayList.map((day, index) => {
          const x = left + index * band + (band - barWidth) / 2;
          let base = 0;
          const perProvider = cost.get(day);
          return (
            <g>
              {props.providers.map((provider, providerIndex) => {
                const entry = perProvider?.get(provider);
                if (!entry || entry.cost <= 0) return null;
                const yTop = y(base + entry.cost);
                const rectHeight = Math.max(1, y(base) - yTop);
                base += entry.cost;
                return (
                  <rect x={x} y={yTop} width={barWidth} height={rectHeight} fill={colourOf(providerIndex)}>
                    <title>{`${day} · ${provider}: ${formatMicros(entry.cost)} (${entry.requests} request${entry.requests === 1 ? '' : 's'})`}</title>
                  </rect>
                );
              })}
              {/* Counted back from today, so the newest day always has a label and spacing stays even. */}
              {(dayList.length - 1 - index) % labelEvery === 0 ? (
                <text x={left + index * band + band / 2} y={height - 10} text-anchor="middle">{day.slice(5)}</text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {total === 0 ? <figcaption class="muted small">No spend in this period.</figcaption> : null}
      <ul class="legend" aria-label="Providers">
        {props.providers.map((provider, index) => (
          <li>
            <svg width="12" height="12" aria-hidden="true"><rect width="12" height="12" rx="2" fill={colourOf(index)} /></svg>
            {provider}
          </li>
        ))}
      </ul>
    </figure>
  );
}
