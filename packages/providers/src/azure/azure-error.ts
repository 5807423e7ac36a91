// Classifies Azure Speech error answers. The TTS endpoint mostly answers errors with an empty body; the API
// gateway in front of it words 401/403/429 as `{"error": {"code": "401", "message": ...}}`. Only the status is
// compared: the body never carries a machine code worth more than the status.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';

export function classifyAzureError(status: number, _bodyText: string): UpstreamErrorClassification {
  // The router writes a well-formed SSML document; its only free-form value is the voice name, so a 400
  // (Azure's answer to an unknown or misspelled voice) is the client's voice.
  if (status === 400) return { category: 'invalid_request', field: 'voice' };
  // A wrong Content-Type or output format header is the router's own fault, never the client's.
  if (status === 415) return { category: 'upstream_rejected_request' };
  return {};
}
