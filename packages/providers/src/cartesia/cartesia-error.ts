// Extracts Cartesia's `error_code` from a JSON error body, or a slug of the title from old plain-text errors.

import type { ParsedUpstreamError } from '../http/send-speech-request.js';
import type { CartesiaErrorBody } from './cartesia-api-types.js';

/** A short title such as "Too many concurrent requests" becomes too_many_concurrent_requests. */
function slugFromTitle(title: string): string | undefined {
  if (title.length > 64) return undefined;
  const slug = title.trim().toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  return slug || undefined;
}

/** Old versions answer `Title: Message`; only the title is kept. */
function slugFromPlainText(bodyText: string): string | undefined {
  const colon = bodyText.indexOf(':');
  return colon > 0 ? slugFromTitle(bodyText.slice(0, colon)) : undefined;
}

export function parseCartesiaErrorBody(_status: number, bodyText: string): ParsedUpstreamError {
  let parsed: CartesiaErrorBody;
  try {
    parsed = JSON.parse(bodyText) as CartesiaErrorBody;
  } catch {
    const slug = slugFromPlainText(bodyText);
    return slug ? { upstreamCode: slug } : {};
  }
  if (typeof parsed !== 'object' || parsed === null) return {};
  if (typeof parsed.error_code === 'string') return { upstreamCode: parsed.error_code };
  // error_code is nullable; the title still distinguishes e.g. unauthorized from invalid_request.
  const slug = typeof parsed.title === 'string' ? slugFromTitle(parsed.title) : undefined;
  return slug ? { upstreamCode: slug } : {};
}
