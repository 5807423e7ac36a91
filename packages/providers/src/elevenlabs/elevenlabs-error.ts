// Extracts ElevenLabs' `detail.status` slug (or the newer `detail.code`) from an error body; messages are dropped.

import type { ParsedUpstreamError } from '../http/send-speech-request.js';
import type { ElevenLabsErrorBody } from './elevenlabs-api-types.js';

export function parseElevenLabsErrorBody(_status: number, bodyText: string): ParsedUpstreamError {
  let parsed: ElevenLabsErrorBody;
  try {
    parsed = JSON.parse(bodyText) as ElevenLabsErrorBody;
  } catch {
    return {};
  }
  const detail = typeof parsed === 'object' && parsed !== null ? parsed.detail : undefined;
  if (Array.isArray(detail)) return { upstreamCode: 'validation_error' };
  if (typeof detail !== 'object' || detail === null) return {};
  const code = typeof detail.status === 'string' ? detail.status : typeof detail.code === 'string' ? detail.code : undefined;
  return code === undefined ? {} : { upstreamCode: code };
}
