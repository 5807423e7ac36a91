// Money is integer micro-dollars. Drivers hand BIGINT back as string (pg) or bigint (PGlite);
// everything is normalised to bigint here and only becomes a JSON number at the HTTP edge.

export function toMicros(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return BigInt(value);
  throw new TypeError(`not an integer amount of micro-dollars: ${String(value)}`);
}

/** For JSON: exact as long as the amount is below 2^53 µ$ (about 9 billion dollars). */
export function microsToNumber(value: bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`amount out of exact range: ${value}`);
  return number;
}

/** Parses a decimal USD amount ("12.50") into micro-dollars without floating point. */
export function usdToMicros(usd: string): bigint {
  const match = /^(\d{1,12})(?:\.(\d{1,6}))?$/.exec(usd.trim());
  if (!match) throw new RangeError(`not a USD amount with at most 6 decimals: ${usd}`);
  const whole = BigInt(match[1]!);
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  return whole * 1_000_000n + fraction;
}

/** cost = ceil(code points × microsPerUnit), exact for fractional prices with up to 6 decimals. */
export function costForCharacters(characters: number, microsPerUnit: number): bigint {
  if (!Number.isInteger(characters) || characters < 0) throw new RangeError('characters must be a natural number');
  if (!(microsPerUnit >= 0) || !Number.isFinite(microsPerUnit)) throw new RangeError('price must be non-negative');
  const scaledPrice = BigInt(Math.round(microsPerUnit * 1_000_000));
  const scaled = BigInt(characters) * scaledPrice;
  return (scaled + 999_999n) / 1_000_000n;
}
