// The answers to a request over a per-key limit: 429 with Retry-After for rate and concurrency, 402
// for a spend cap. Bodies go through the contracts' error table like every other error.
import { ERROR_STATUS, LIMIT_CODES, errorBody, type ErrorCode } from '@voice-router/contracts';
import type { SpendCapKind } from '@voice-router/ledger';
import type { LimitRefusal } from '@voice-router/limits';
import { respond, sendError, statusLine, type ResponseState } from '../http/response.js';
import type { HttpResponse } from '../uws.js';

/** An error with a Retry-After header (seconds from now). */
export function sendErrorWithRetryAfter(
  res: HttpResponse, state: ResponseState, code: ErrorCode, details: string, retryAfterSeconds: number, detailCode?: string,
): void {
  if (state.aborted || state.responded) return;
  respond(state, ERROR_STATUS[code]);
  const json = JSON.stringify(errorBody(code, details, detailCode));
  res.cork(() => {
    res.writeStatus(statusLine(ERROR_STATUS[code]))
      .writeHeader('content-type', 'application/json')
      .writeHeader('retry-after', String(retryAfterSeconds))
      .end(json);
  });
}

export function sendLimitRefusal(res: HttpResponse, state: ResponseState, refusal: LimitRefusal): void {
  if (refusal.kind === 'rate') {
    const details = `this key may make ${refusal.limit} requests per minute; the window resets in ${refusal.retryAfterSeconds} s`;
    return sendErrorWithRetryAfter(res, state, 'rate_limited', details, refusal.retryAfterSeconds, LIMIT_CODES.rate);
  }
  const details = `this key may have ${refusal.limit} speech streams open at once; a slot frees when one of them ends`;
  sendErrorWithRetryAfter(res, state, 'concurrency_limited', details, 1, LIMIT_CODES.concurrency);
}

export function sendSpendCapRefusal(
  res: HttpResponse, state: ResponseState, refusal: { reason: SpendCapKind; capMicros: bigint; resetsAt: Date },
): void {
  const window = refusal.reason === 'daily_spend_cap' ? 'daily' : 'monthly';
  const span = refusal.reason === 'daily_spend_cap' ? 'UTC day' : 'UTC month';
  const details =
    `this request would take the key past its ${window} spend cap of ${refusal.capMicros} micro-dollars ` +
    `(committed plus reserved spend in the current ${span}); it resets at ${refusal.resetsAt.toISOString()}`;
  sendError(res, state, 'spend_limit_exceeded', details, { detailCode: LIMIT_CODES[refusal.reason] });
}
