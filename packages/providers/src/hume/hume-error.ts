// Classifies Hume error answers by status and shape only: `{code, error, message}` or 422 `{detail: [...]}`.
// Messages are never read. A 404 in Hume's error object on the speech route can only be about the voice (the
// one resource a request names); a wrong route answers `{detail: "Not Found"}` instead.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson } from '../shared/error-body.js';

export function classifyHumeError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  // The router builds a schema-valid body, so a validation or bad-request answer is about the client's values
  // (voice, text, speed...); other statuses are left to their category.
  if (status === 422 && isObject(parsed) && Array.isArray(parsed.detail)) return { category: 'invalid_request' };
  if (status === 404 && isObject(parsed) && (typeof parsed.code === 'string' || typeof parsed.error === 'string')) {
    return { category: 'invalid_request', field: 'voice' };
  }
  if (status === 400) return { category: 'invalid_request' };
  return {};
}
