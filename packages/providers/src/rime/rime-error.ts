// Classifies Rime error answers. Rime documents no error body, so only the status is read: the router sends a
// well-formed body, so 400 and 422 are about values the client chose (speaker, model, text, options).

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';

export function classifyRimeError(status: number, _bodyText: string): UpstreamErrorClassification {
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
