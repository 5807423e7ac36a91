// POST /v1/audio/speech: authenticate, price, reserve, synthesize, stream with backpressure, settle.
// Charging rules (also in the OpenAPI document): nothing is charged unless audio reached the client;
// a client that leaves mid-stream is charged (the provider did the work); an upstream that fails
// mid-stream is not, and the response is cut without its final chunk so the client sees truncation.
import { MAX_SPEECH_BODY_BYTES, SPEECH_HEADERS } from '@voice-router/contracts';
import { childTraceparent, parseTraceparent } from '@voice-router/service-kit';
import { LightAbortSignal, ProviderError, type AbortSignalLike, type SpeechResult } from '@voice-router/providers';
import type { DataPlaneContext } from '../context.js';
import { readBody, type BodyResult } from '../http/request-body.js';
import { newRequestId } from '../http/request-id.js';
import { annotateRequest } from '../logging/request-log.js';
import { countUnanswered, respond, sendError, statusLine, trackAbort, waitForWritable, type ResponseState } from '../http/response.js';
import type { HttpResponse, TemplatedApp } from '../uws.js';
import { routerEndCause, RouterEndedStream } from '../lifecycle/stream-end.js';
import { endBeforeAudio, failBeforeAudio, refuseOnBreaker, sendUpstreamFailure } from './speech-failures.js';
import { sendErrorWithRetryAfter, sendLimitRefusal, sendSpendCapRefusal } from '../limits/limit-responses.js';
import type { StreamSlot } from '@voice-router/limits';
import { planSpeech, type SpeechPlan } from './speech-plan.js';

const CONTENT_TYPES = { mp3: 'audio/mpeg', pcm: 'audio/l16;rate=24000;channels=1' } as const;

export function registerSpeechRoute(app: TemplatedApp, context: DataPlaneContext): void {
  app.post('/v1/audio/speech', (res, req) => {
    const arrivedAt = performance.now();
    const authorization = req.getHeader('authorization');
    const contentLength = req.getHeader('content-length');
    // The request id is the reservation id too: X-Request-Id, the request's log line and the ledger agree.
    const requestId = newRequestId();
    // A caller's valid W3C traceparent continues upstream with our span; an invalid one is ignored.
    const trace = parseTraceparent(req.getHeader('traceparent'));
    annotateRequest(res, { requestId, traceId: trace?.traceId });
    const upstream: UpstreamCall = { requestId, traceparent: trace && childTraceparent(trace) };
    // The request's own signal: the client leaving, the router's deadline or a shutdown abort it (see
    // LightAbortSignal for why it is not an AbortController).
    const abort = new LightAbortSignal();
    const state = trackAbort(res, () => abort.abort());
    if (context.inFlight.draining) {
      // Closing the connection sends the client (or its load balancer) to another replica.
      return sendError(res, state, 'provider_unavailable', 'this replica is shutting down; retry', { closeConnection: true });
    }
    const finished = context.inFlight.begin(abort);
    const body = readBody(res, contentLength, MAX_SPEECH_BODY_BYTES, () => state.aborted, abort);
    const held: HeldSlot = {};
    handleSpeech(res, state, abort, authorization, body, context, held, arrivedAt, upstream)
      .catch((error) => {
        context.logger.error('speech request failed unexpectedly', { error });
        sendError(res, state, 'internal_error');
      })
      .finally(() => {
        // The key's concurrency slot frees the moment its response has ended, however it ended.
        held.slot?.release();
        countUnanswered(state);
        finished();
      });
  });
}

/** The concurrency slot a speech request holds, set once it is admitted. */
interface HeldSlot {
  slot?: StreamSlot;
}

/** Decided when the request arrives: its id (= reservation id) and the traceparent for the upstream call. */
interface UpstreamCall {
  requestId: string;
  traceparent?: string;
}

async function handleSpeech(
  res: HttpResponse, state: ResponseState, abort: LightAbortSignal, authorization: string,
  bodyPromise: Promise<BodyResult> | undefined, context: DataPlaneContext, held: HeldSlot, arrivedAt: number, upstream: UpstreamCall,
): Promise<void> {
  // Per-key limits: the rate and a concurrency slot in one step (at most one round trip on Redis; none
  // for a key whose grant covers it), started as soon as the key is known, so it overlaps the rest of
  // the body's arrival. It reserves nothing and sends nothing upstream; every answer below waits for it,
  // and a refused or failed request releases its slot (finally, in the caller). Spend caps are checked atomically with the reservation below.
  const identified = context.auth.identify(authorization);
  const limited = identified.then((credential) =>
    credential?.kind === 'api_key' && context.limits ? context.limits.openStream(credential.key) : undefined);
  const [credential, keyAdmission] = await Promise.all([identified, limited]);
  // An async function's frame keeps what its variables and parameters held until it returns, here the
  // end of the stream: the request body (up to MAX_SPEECH_BODY_BYTES; ~4 KB a stream for a 4,000-character
  // input) is let go of once the plan is made.
  let body: BodyResult | undefined = await bodyPromise!;
  bodyPromise = undefined;
  if (keyAdmission?.ok) held.slot = keyAdmission.slot;
  if (!body.ok) {
    if (body.reason === 'too_large') {
      sendError(res, state, 'invalid_body', `body exceeds ${MAX_SPEECH_BODY_BYTES} bytes`, { closeConnection: true });
    }
    return;
  }
  if (!credential) return sendError(res, state, 'unauthorized', 'a valid pk_ API key is required (Authorization: Bearer pk_…)');
  if (credential.kind !== 'api_key') return sendError(res, state, 'scope_required', 'speech needs a pk_ API key, not a session token (create one with `vr keys create`)');
  const { key } = credential;
  if (keyAdmission && !keyAdmission.ok) {
    context.metrics.limitRefused(keyAdmission.refusal.kind);
    return sendLimitRefusal(res, state, keyAdmission.refusal);
  }
  const planned = planSpeech(
    body.body,
    (id) => context.registry.descriptor(id),
    (id, options) => context.registry.readProviderOptions(id, options),
  );
  body = undefined;
  if (!planned.ok) return sendError(res, state, planned.code, planned.details);
  const { plan } = planned;
  state.provider = plan.provider;
  annotateRequest(res, { provider: plan.provider });
  if (!context.registry.isAvailable(plan.provider)) {
    return sendError(res, state, 'provider_unavailable', `${plan.provider} is not configured on this deployment (missing_api_key)`);
  }
  // The circuit breaker decides before any money is reserved; a half-open one admits a single probe.
  const admission = context.registry.admit(plan.provider);
  if (!admission.ok) return refuseOnBreaker(res, state, plan.provider, admission.rejection);

  const reservationId = upstream.requestId;
  const reservation = await context.reserve({
    reservationId, accountId: key.accountId, apiKeyId: key.id, amountMicros: plan.costMicros,
    provider: plan.provider, model: plan.input.modelId, characters: plan.characters,
    dailySpendCapMicros: key.dailySpendCapMicros, monthlySpendCapMicros: key.monthlySpendCapMicros,
  });
  if (!reservation.ok) {
    // Nothing goes upstream: a half-open breaker's probe slot is free for another request.
    admission.permit.release();
    if (reservation.reason !== 'insufficient_credit') {
      context.metrics.limitRefused(reservation.reason === 'daily_spend_cap' ? 'daily_spend' : 'monthly_spend');
      return sendSpendCapRefusal(res, state, reservation);
    }
    return sendError(res, state, 'insufficient_credit', `this request costs ${plan.costMicros} micro-dollars; add credit or shorten the input`);
  }
  const settleVoid = (errorCode: string, metadata?: Record<string, unknown>) =>
    context.settler.settle({ action: 'void', reservationId, accountId: key.accountId, errorCode, metadata });

  const deadline = setTimeout(() => abort.abort(new RouterEndedStream('max_duration')), context.streamMaxDurationMs);
  try {
    let result: SpeechResult;
    try {
      result = await context.registry.synthesize(plan.provider, plan.input, {
        signal: abort, permit: admission.permit, traceparent: upstream.traceparent,
      });
    } catch (error) {
      if (state.aborted) return settleVoid('client_closed');
      const ended = routerEndCause(abort);
      if (ended) return endBeforeAudio(res, state, plan, ended, settleVoid);
      return failBeforeAudio(res, state, plan, error, settleVoid, context);
    }
    await streamAudio(res, state, abort, plan, reservationId, key.accountId, result, context, settleVoid, arrivedAt);
  } finally {
    clearTimeout(deadline);
  }
}

function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 2000);
}

async function streamAudio(
  res: HttpResponse, state: ResponseState, signal: AbortSignalLike, plan: SpeechPlan, reservationId: string, accountId: string,
  result: SpeechResult, context: DataPlaneContext, settleVoid: (errorCode: string, metadata?: Record<string, unknown>) => void, arrivedAt: number,
): Promise<void> {
  const warnings = result.warnings.length === 0 ? plan.warnings : [...plan.warnings, ...result.warnings];
  const counters = context.metrics.stream;
  let deliveredBytes = 0;
  let headersWritten = false;
  // Set when the last chunk went out with the end of the response (see below): `res` is then gone.
  let responseEnded = false;
  let upstreamFailed = false;
  let failure: unknown;
  // Bytes handed to the server since it last reported the socket writable: held in user space.
  let backlog = 0;
  const clearBacklog = () => {
    counters.backlogBytes -= backlog;
    backlog = 0;
  };
  // The chunk is held in variables declared out here and cleared once written: a suspended async
  // function keeps what its variables last held while it waits for the next chunk, and a chunk can be a
  // view into a socket read of up to 64 KB (heap snapshot at 1,000 slow streams: ~10 MB of such reads held
  // that way). Not `for await`: on Node 26 (V8 14) it keeps the last value in the suspended frame however
  // the loop's variable is cleared, so the loop below calls next() and, when it leaves early, return().
  const audio = result.audio[Symbol.asyncIterator]();
  let step: IteratorResult<Uint8Array> | undefined;
  let chunk: Uint8Array | undefined;
  // True while next() runs and once it has said done or thrown: then there is nothing for return() to close.
  let iterationOver = false;
  try {
    try {
      for (;;) {
        iterationOver = true;
        step = await audio.next();
        if (step.done) break;
        iterationOver = false;
        chunk = step.value;
        step = undefined;
        if (state.aborted) break;
        let writable = true;
        // The upstream body has already ended and this is its last chunk (typical of short answers, whose
        // last bytes and end arrive in one read): the end of the response goes out in the same write.
        const last = result.audio.exhausted?.() === true;
        res.cork(() => {
          if (!headersWritten) {
            headersWritten = true;
            respond(state, 200);
            counters.activeStreams += 1;
            context.metrics.firstAudio(plan.provider, (performance.now() - arrivedAt) / 1000);
            res.writeStatus(statusLine(200))
              .writeHeader('content-type', CONTENT_TYPES[plan.input.format])
              .writeHeader(SPEECH_HEADERS.provider, plan.provider)
              .writeHeader(SPEECH_HEADERS.costMicros, plan.costMicros.toString())
              .writeHeader(SPEECH_HEADERS.requestId, reservationId);
            if (warnings.length) res.writeHeader(SPEECH_HEADERS.warnings, headerSafe(warnings.join('; ')));
          }
          writable = res.write(chunk!);
          // Only without backpressure: an ended response cannot wait for the socket to drain.
          if (last && writable) {
            res.end();
            responseEnded = true;
          }
        });
        const bytes = chunk.byteLength;
        // The server has sent or copied it.
        chunk = undefined;
        deliveredBytes += bytes;
        counters.audioBytes += bytes;
        if (writable) clearBacklog();
        else {
          counters.backpressureEvents += 1;
          backlog += bytes;
          counters.backlogBytes += bytes;
          if (backlog > counters.maxBacklogBytes) counters.maxBacklogBytes = backlog;
          await waitForWritable(res, state, signal);
          clearBacklog();
        }
        // The router's deadline or a shutdown: stop here rather than pull another chunk from upstream.
        if (signal.aborted) break;
      }
    } finally {
      // Leaving early (the client left, the deadline, a shutdown, a throw) cancels the upstream request.
      chunk = undefined;
      if (!iterationOver) await audio.return?.();
    }
  } catch (error) {
    upstreamFailed = !state.aborted && routerEndCause(signal) === undefined;
    failure = error;
    if (upstreamFailed) {
      context.logger.warn('upstream failed mid-stream', {
        provider: plan.provider, deliveredBytes, category: error instanceof ProviderError ? error.category : 'unknown',
      });
    }
  } finally {
    clearBacklog();
    if (headersWritten) counters.activeStreams -= 1;
  }

  if (responseEnded) {
    // The whole upstream body reached the client's socket and the response is complete.
    context.settler.settle({ action: 'commit', reservationId, accountId, metadata: { deliveredBytes } });
    return;
  }
  if (state.aborted) {
    // The client left. Charged only if it received audio: the provider has already done the work.
    if (deliveredBytes > 0 && headersWritten) {
      context.settler.settle({ action: 'commit', reservationId, accountId, metadata: { clientClosed: true, deliveredBytes } });
    } else {
      settleVoid('client_closed');
    }
    return;
  }
  const ended = routerEndCause(signal);
  if (ended) {
    // The provider did the work for what was delivered; the router chose to stop. Charged, ended cleanly.
    if (!headersWritten) return endBeforeAudio(res, state, plan, ended, settleVoid);
    res.cork(() => res.end());
    context.settler.settle({ action: 'commit', reservationId, accountId, metadata: { deliveredBytes, endedBy: ended } });
    return;
  }
  if (upstreamFailed) {
    const category = failure instanceof ProviderError ? failure.category : 'upstream_network_error';
    settleVoid('upstream_error', { midStream: true, deliveredBytes, category });
    if (headersWritten) res.close();
    else sendUpstreamFailure(res, state, plan.provider, category);
    return;
  }
  if (!headersWritten) {
    // The provider produced no audio at all: nothing to charge for.
    settleVoid('upstream_error', { emptyAudio: true, category: 'upstream_bad_response' });
    return sendUpstreamFailure(res, state, plan.provider, 'upstream_bad_response');
  }
  res.cork(() => res.end());
  context.settler.settle({ action: 'commit', reservationId, accountId, metadata: { deliveredBytes } });
}
