// Money arrives as integer micro-dollars; it is shown and parsed with integer arithmetic only, so
// no amount is ever rounded by a float on its way to the screen or to the server.
const MICROS_PER_DOLLAR = 1_000_000n;

/** 315 → "$0.000315", 5_000_000 → "$5.00", -1_500_000 → "-$1.50". At least two decimals, at most six. */
export function formatMicros(micros: number | bigint | string): string {
  const value = BigInt(micros);
  const negative = value < 0n;
  const magnitude = negative ? -value : value;
  const dollars = magnitude / MICROS_PER_DOLLAR;
  let fraction = (magnitude % MICROS_PER_DOLLAR).toString().padStart(6, '0');
  while (fraction.length > 2 && fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}$${dollars.toString()}.${fraction}`;
}

/** "1.25" or "$1.25" → 1_250_000. Refuses more than six decimals instead of rounding them away. */
export function parseUsdToMicros(text: string): number {
  const match = /^\$?(\d+)(?:\.(\d{1,6}))?$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a dollar amount with at most six decimals`);
  const micros = BigInt(match[1]!) * MICROS_PER_DOLLAR + BigInt((match[2] ?? '').padEnd(6, '0'));
  if (micros > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`"${text}" is too large`);
  return Number(micros);
}
