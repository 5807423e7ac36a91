// Classifies Fish Audio error answers by status and shape only: `{status, message}` or a 422 list.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson } from '../shared/error-body.js';

export function classifyFishError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  // The voice (reference_id) is the only resource a speech request names: a 404 in Fish's own error shape is
  // about it. A wrong route answers another shape and is left to the status category.
  if (status === 404 && isObject(parsed) && typeof parsed.status === 'number') return { category: 'invalid_request', field: 'voice' };
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
