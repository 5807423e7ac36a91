// Reads a dotted path (`data.audio`, `choices.0.delta.audio`) out of parsed JSON without throwing.

export function readFieldPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
