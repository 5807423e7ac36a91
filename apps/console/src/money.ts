// Money crosses the console as integer micro-dollars. USD typed into a form is parsed as a decimal
// string, never through a float, so "0.1" is exactly 100000 micros.

const microsPerDollar = 1_000_000n;
const usdPattern = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

export type UsdParse = { ok: true; micros: number } | { ok: false; message: string };

/** Parses a non-negative USD amount with at most 6 decimals ("12.50" → 12500000). */
export function parseUsdToMicros(text: string): UsdParse {
  const trimmed = text.trim().replace(/^\$/, '');
  const match = usdPattern.exec(trimmed);
  if (!match) {
    return { ok: false, message: 'Enter a non-negative amount in USD with at most 6 decimals, such as 12.50.' };
  }
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  const micros = whole * microsPerDollar + fraction;
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) return { ok: false, message: 'That amount is too large.' };
  return { ok: true, micros: Number(micros) };
}

/**
 * Formats micros as dollars: at least 2 decimals, up to 6 when the amount needs them
 * ($1.50, $0.000123, -$2.00). Integer arithmetic only.
 */
export function formatMicros(micros: number): string {
  const value = BigInt(Math.trunc(micros));
  const sign = value < 0n ? '-' : '';
  const absolute = value < 0n ? -value : value;
  const whole = (absolute / microsPerDollar).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let fraction = (absolute % microsPerDollar).toString().padStart(6, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${sign}$${whole}.${fraction}`;
}

/** Like formatMicros, with an explicit + on positive amounts (ledger deltas). */
export function formatSignedMicros(micros: number): string {
  return micros > 0 ? `+${formatMicros(micros)}` : formatMicros(micros);
}

/** Micros as a plain USD amount for a form field ("12.5", "0.000001"): no sign, separators or currency. */
export function microsToUsdInput(micros: number): string {
  const value = BigInt(Math.trunc(micros));
  const fraction = (value % microsPerDollar).toString().padStart(6, '0').replace(/0+$/, '');
  return fraction ? `${value / microsPerDollar}.${fraction}` : `${value / microsPerDollar}`;
}
