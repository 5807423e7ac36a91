// Classifies Neuphonic error answers by status only; bodies (FastAPI's `{detail}`) are never read. A 404 is left
// to its status category: FastAPI answers a wrong route (a misconfigured base URL) with the same
// `{detail: ...}` shape as a missing voice, so it cannot be pinned on the client's voice.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';

export function classifyNeuphonicError(status: number, _bodyText: string): UpstreamErrorClassification {
  // The router sends a schema-valid body, so a bad-request or validation answer is about the client's values
  // (lang_code, text, voice).
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
