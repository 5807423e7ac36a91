// Classifies LMNT error answers by their `error.type` only (never by message text).

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';

function errorType(bodyText: string): string | undefined {
  const parsed = parseJson(bodyText);
  if (!isObject(parsed) || !isObject(parsed.error)) return undefined;
  return stringField(parsed.error, 'type');
}

export function classifyLmntError(status: number, bodyText: string): UpstreamErrorClassification {
  const type = errorType(bodyText);
  // On the speech endpoint the voice is the only resource that can be missing; a wrong route answers
  // without LMNT's error envelope and is left to the status category.
  if (type === 'not_found_error') return { category: 'invalid_request', field: 'voice' };
  if (type === 'payment_required_error') return { category: 'upstream_quota_exceeded' };
  if (type === 'invalid_request_error' && (status === 400 || status === 422)) return { category: 'invalid_request' };
  if (type === undefined && status === 422) return { category: 'invalid_request' };
  return {};
}
