// Classifies Deepgram error answers by status and envelope only (never by message text).

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';

/** Whether the body is one of Deepgram's two error envelopes (`err_code`/`err_msg` or `category`/`message`). */
function isDeepgramError(bodyText: string): boolean {
  const parsed = parseJson(bodyText);
  if (!isObject(parsed)) return false;
  return stringField(parsed, 'err_code') !== undefined || stringField(parsed, 'category') !== undefined;
}

export function classifyDeepgramError(status: number, bodyText: string): UpstreamErrorClassification {
  // A body without Deepgram's envelope (a proxy, a wrong base URL) is left to the status category.
  if (!isDeepgramError(bodyText)) return {};
  // 413: the text is over the character (or 2 MB body) limit: the client's input.
  if (status === 413) return { category: 'invalid_request', field: 'input' };
  // 400: unknown model (= our model + voice), bad query value, empty text; 415/422: a body Deepgram cannot use.
  if (status === 400 || status === 415 || status === 422) return { category: 'invalid_request' };
  if (status === 402) return { category: 'upstream_quota_exceeded' };
  return {};
}
