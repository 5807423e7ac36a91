// Classifies Resemble error answers by status and shape only (`{success: false, message}`); the message is never
// read. The voice is the one resource a stream request names, so a 404 in Resemble's shape is an unknown voice.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson } from '../shared/error-body.js';

export function classifyResembleError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  const resembleShape = isObject(parsed) && parsed.success === false;
  if (status === 404 && resembleShape) return { category: 'invalid_request', field: 'voice' };
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
