// Form bodies parsed with `extended: false` may hold arrays for repeated names; pages want strings.
import type { Request } from 'express';

export function field(request: Request, name: string, maxLength = 1000): string {
  const body: unknown = request.body;
  if (!body || typeof body !== 'object') return '';
  const value = (body as Record<string, unknown>)[name];
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

export function queryString(request: Request, name: string, maxLength = 1000): string {
  const value = request.query[name];
  return typeof value === 'string' ? value.slice(0, maxLength) : '';
}

/** Optional positive whole number from a form field: '' → undefined. */
export function parseOptionalCount(text: string, label: string): { ok: true; value?: number } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true };
  if (!/^\d{1,9}$/.test(trimmed) || Number(trimmed) < 1) {
    return { ok: false, message: `${label} must be a whole number of at least 1, or empty for no limit.` };
  }
  return { ok: true, value: Number(trimmed) };
}
