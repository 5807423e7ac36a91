// Classifies Smallest.ai error answers by status only: the error body's shape is not documented, and bodies are
// never read anyway. The router sends a valid body, so 400, 413 and 422 are about the client's values.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';

export function classifySmallestError(status: number, _bodyText: string): UpstreamErrorClassification {
  if (status === 400 || status === 413 || status === 422) return { category: 'invalid_request' };
  return {};
}
