// Classifies MiniMax error answers by `base_resp.status_code` (usually inside an HTTP 200) or a gateway's
// `error.type`, then by HTTP status. Messages are never read.

import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';
import { MINIMAX_CODES as C } from './minimax-api-types.js';

function statusCode(parsed: Record<string, unknown>): number | undefined {
  const base = parsed.base_resp;
  if (isObject(base) && typeof base.status_code === 'number' && Number.isInteger(base.status_code)) return base.status_code;
  if (isObject(parsed.error) && typeof parsed.error.code === 'number' && Number.isInteger(parsed.error.code)) return parsed.error.code;
  return undefined;
}

function byCode(code: number): UpstreamErrorClassification | undefined {
  switch (code) {
    case C.AUTH_FAILED:
    case C.INVALID_API_KEY:
      return { category: 'upstream_auth_failed' };
    case C.RATE_LIMITED:
    case C.TOKEN_RATE_LIMITED:
    case C.CONNECTION_LIMITED:
      return { category: 'upstream_rate_limited' };
    case C.INSUFFICIENT_BALANCE:
    case C.QUOTA_EXHAUSTED:
    case C.QUOTA_EXHAUSTED_PLAN:
      return { category: 'upstream_quota_exceeded' };
    case C.UNKNOWN:
    case C.TIMEOUT:
      return { category: 'upstream_server_error' };
    case C.INPUT_SENSITIVE:
    case C.OUTPUT_SENSITIVE:
    case C.INVISIBLE_CHARACTERS:
      return { category: 'invalid_request', field: 'input' };
    case C.VOICE_NOT_FOUND:
    case C.INVALID_VOICE_ID:
      return { category: 'invalid_request', field: 'voice' };
    case C.MODEL_NOT_IN_PLAN:
      return { category: 'invalid_request', field: 'model' };
    case C.INVALID_PARAMS:
      return { category: 'invalid_request' };
    default:
      return undefined;
  }
}

export function classifyMiniMaxError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  if (isObject(parsed)) {
    const code = statusCode(parsed);
    const known = code === undefined || code === 0 ? undefined : byCode(code);
    if (known) return known;
    if (isObject(parsed.error) && stringField(parsed.error, 'type') === 'insufficient_balance_error') return { category: 'upstream_quota_exceeded' };
  }
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  // HTTP 200 with an unknown code (or none): a success answer without audio; other statuses keep their category.
  return {};
}
