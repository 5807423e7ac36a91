// Classifies Inworld error answers by HTTP status and the gRPC `code` number of its Google-style error body
// (`{code, message, details}`); the message is never read. On the speech route the voice is the only resource a
// request names, so NOT_FOUND means an unknown voice.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson } from '../shared/error-body.js';
import { GRPC } from './inworld-api-types.js';

function grpcCode(bodyText: string): number | undefined {
  const parsed = parseJson(bodyText);
  if (!isObject(parsed)) return undefined;
  const holder = isObject(parsed.error) ? parsed.error : parsed;
  return typeof holder.code === 'number' && Number.isInteger(holder.code) ? holder.code : undefined;
}

export function classifyInworldError(status: number, bodyText: string): UpstreamErrorClassification {
  const code = grpcCode(bodyText);
  if (status === 404 && code === GRPC.NOT_FOUND) return { category: 'invalid_request', field: 'voice' };
  if (status === 400 && (code === GRPC.INVALID_ARGUMENT || code === GRPC.FAILED_PRECONDITION || code === undefined)) return { category: 'invalid_request' };
  return {};
}
