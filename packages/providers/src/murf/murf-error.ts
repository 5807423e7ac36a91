// Classifies Murf error answers by status only: its SDK types error bodies as `any` and Murf documents no
// machine codes, so nothing in the body is read (and its message never leaves this function).

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';

export function classifyMurfError(status: number, _bodyText: string): UpstreamErrorClassification {
  // The router sends a schema-valid body, so a 400 is about what the client chose (voice, text, locale, style).
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
