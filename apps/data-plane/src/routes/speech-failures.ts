// How the speech route answers what went wrong before the first audio byte: client refusals (400), an open
// circuit breaker (503 with its state), and upstream failures (502/504 with a category from the router's
// closed set). Only the router's own words leave here: never an upstream message, code or header.
import { ERROR_STATUS, SPEECH_HEADERS, UPSTREAM_TIMEOUT_STATUS, errorBody, type UpstreamFailureCode } from '@voice-router/contracts';
import {
  CircuitOpenError, InvalidSpeechRequestError, ProviderError, UpstreamInvalidRequestError, type CircuitRejection,
} from '@voice-router/providers';
import type { DataPlaneContext } from '../context.js';
import { respond, sendError, statusLine, type ResponseState } from '../http/response.js';
import { sendErrorWithRetryAfter } from '../limits/limit-responses.js';
import type { HttpResponse } from '../uws.js';
import type { SpeechPlan } from './speech-plan.js';

export type SettleVoid = (errorCode: string, metadata?: Record<string, unknown>) => void;

/** Router-written summaries per category, for people; the `code` field is what programs read. */
const CATEGORY_DETAILS: Record<UpstreamFailureCode, string> = {
  upstream_server_error: 'the provider had a server error',
  upstream_rate_limited: 'the provider is rate limiting this deployment',
  upstream_auth_failed: "the provider refused this deployment's credentials",
  upstream_quota_exceeded: "this deployment's account with the provider is out of credit",
  upstream_rejected_request: 'the provider refused the request the router sent (check the provider base URL)',
  upstream_bad_response: 'the provider answered without audio',
  upstream_network_error: 'the connection to the provider failed',
  upstream_timeout: 'the provider did not answer in time',
};

/** 503 provider_unavailable with the breaker's state, and how long an open breaker stays shut. */
export function refuseOnBreaker(res: HttpResponse, state: ResponseState, provider: string, rejection: CircuitRejection): void {
  if (state.aborted || state.responded) return;
  respond(state, ERROR_STATUS.provider_unavailable);
  const details = rejection.state === 'open'
    ? `${provider} is failing; its circuit breaker is open`
    : `${provider} is recovering; its circuit breaker lets one probe request through at a time`;
  const body = JSON.stringify(errorBody('provider_unavailable', details));
  res.cork(() => {
    res.writeStatus(statusLine(ERROR_STATUS.provider_unavailable))
      .writeHeader('content-type', 'application/json')
      .writeHeader(SPEECH_HEADERS.breakerState, rejection.state);
    if (rejection.state === 'open') res.writeHeader('retry-after', String(Math.max(1, Math.ceil(rejection.retryAfterMs / 1000))));
    res.end(body);
  });
}

export function failBeforeAudio(
  res: HttpResponse, state: ResponseState, plan: SpeechPlan, error: unknown, settleVoid: SettleVoid, context: DataPlaneContext,
): void {
  if (error instanceof InvalidSpeechRequestError) {
    if (error instanceof UpstreamInvalidRequestError) {
      context.logger.info('provider refused the request', { provider: error.provider, statusCode: error.statusCode, field: error.field });
    }
    settleVoid('invalid_body');
    return sendError(res, state, 'invalid_body', error.details);
  }
  if (error instanceof CircuitOpenError) {
    // The breaker opened between admission and the upstream call: nothing was sent, nothing is charged.
    settleVoid('provider_unavailable', { provider: plan.provider, breaker: error.rejection.state });
    return refuseOnBreaker(res, state, plan.provider, error.rejection);
  }
  if (error instanceof ProviderError && error.kind === 'overloaded') {
    // The local synthesis queue is full: say when to come back instead of waiting in it (load shedding,
    // not a failure: the breaker does not count it).
    settleVoid('provider_unavailable', { provider: plan.provider, overloaded: true });
    const retryAfter = Math.max(1, Math.ceil((error.retryAfterMs ?? 1_000) / 1_000));
    return sendErrorWithRetryAfter(res, state, 'provider_unavailable', `${plan.provider} is at capacity; retry in ${retryAfter} s`, retryAfter);
  }
  if (error instanceof ProviderError) {
    const code: UpstreamFailureCode = error.category;
    context.logger.warn('upstream failed before audio', {
      provider: error.provider, kind: error.kind, category: code, statusCode: error.statusCode, attempts: error.attempts,
    });
    const timedOut = code === 'upstream_timeout';
    settleVoid(timedOut ? 'upstream_timeout' : 'upstream_error', { provider: plan.provider, category: code, upstreamStatus: error.statusCode });
    const attempts = error.attempts && error.attempts > 1 ? ` after ${error.attempts} attempts` : '';
    const details = timedOut
      ? `${plan.provider} did not answer within ${context.attemptTimeoutMs} ms${attempts}`
      : `${plan.provider} failed${attempts}: ${CATEGORY_DETAILS[code]}`;
    return sendUpstreamError(res, state, code, details);
  }
  context.logger.error('synthesis failed', { provider: plan.provider, error });
  settleVoid('internal_error');
  sendError(res, state, 'internal_error');
}

function sendUpstreamError(res: HttpResponse, state: ResponseState, code: UpstreamFailureCode, details: string): void {
  if (state.aborted || state.responded) return;
  const status = code === 'upstream_timeout' ? UPSTREAM_TIMEOUT_STATUS : ERROR_STATUS.upstream_error;
  respond(state, status);
  const body = JSON.stringify(errorBody('upstream_error', details, code));
  res.cork(() => res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json').end(body));
}

/** An upstream failure found while reading the audio, before any of it reached the client. */
export function sendUpstreamFailure(res: HttpResponse, state: ResponseState, provider: string, code: UpstreamFailureCode): void {
  sendUpstreamError(res, state, code, `${provider} failed before any audio: ${CATEGORY_DETAILS[code]}`);
}

/** The router's own deadline or a shutdown ended the request before any audio: nothing to charge. */
export function endBeforeAudio(
  res: HttpResponse, state: ResponseState, plan: SpeechPlan, cause: 'max_duration' | 'shutdown', settleVoid: SettleVoid,
): void {
  if (cause === 'shutdown') {
    settleVoid('shutdown');
    return sendError(res, state, 'provider_unavailable', 'this replica is shutting down; retry', { closeConnection: true });
  }
  settleVoid('upstream_timeout', { provider: plan.provider, endedBy: 'stream_max_duration', category: 'upstream_timeout' });
  sendUpstreamError(res, state, 'upstream_timeout', `${plan.provider} produced no audio within the stream's maximum duration`);
}
