// Classifies Speechify error answers by status and shape only (`{error: "..."}`); the message is never read.
// On the stream route the voice is the one resource a request names, so a 404 in Speechify's error object is
// taken as an unknown voice; a wrong route answers without that object and keeps its status category.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson } from '../shared/error-body.js';

function hasErrorObject(bodyText: string): boolean {
  const parsed = parseJson(bodyText);
  return isObject(parsed) && typeof parsed.error === 'string';
}

export function classifySpeechifyError(status: number, bodyText: string): UpstreamErrorClassification {
  if (status === 404 && hasErrorObject(bodyText)) return { category: 'invalid_request', field: 'voice' };
  // The router builds a valid body, so a bad-request or validation answer is about the client's values
  // (text length, model, language).
  if (status === 400 || status === 413 || status === 422) return { category: 'invalid_request' };
  return {};
}
