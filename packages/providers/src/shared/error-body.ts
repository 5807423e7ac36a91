// Helpers the providers' error classifiers share: safe JSON parsing and reading short machine codes. What
// they return is only ever compared against known values; it never leaves the classifier.

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(record: Record<string, unknown>, name: string): string | undefined {
  const value = record[name];
  return typeof value === 'string' ? value : undefined;
}

/** "Too many concurrent requests" becomes too_many_concurrent_requests, for comparing against known titles. */
export function slugOf(text: string): string | undefined {
  if (text.length > 80) return undefined;
  const slug = text.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  return slug || undefined;
}
