// POST /v1/audio/speech: authenticate, price, reserve, synthesize, stream with backpressure, settle.
// Charging rules (also in the OpenAPI document): nothing is charged unless audio reached the client;
// a client that leaves mid-stream is charged (the provider did the work); an upstream that fails
// mid-stream is not, and the response is cut without its final chunk so the client sees truncation.
import crypto from 'node:crypto';
import { MAX_SPEECH_BODY_BYTES, SPEECH_HEADERS } from '@voice-router/contracts';
import { reserveCredit } from '@voice-router/ledger';
import { ProviderError, type SpeechResult } from '@voice-router/providers';
import type { DataPlaneContext } from '../context.js';
import { attachState, sendError, statusLine, waitForWritable, type ResponseState } from '../http/response.js';
import type { HttpResponse, TemplatedApp } from '../uws.js';
import { routerEndCause, RouterEndedStream } from '../lifecycle/stream-end.js';
import { endBeforeAudio, failBeforeAudio, refuseOnBreaker, sendUpstreamFailure, type SettleVoid } from './speech-failures.js';
import { sendLimitRefusal, sendSpendCapRefusal } from '../limits/limit-responses.js';
import type { StreamSlot } from '@voice-router/limits';
import { planSpeech, type SpeechPlan } from './speech-plan.js';

const CONTENT_TYPES = { mp3: 'audio/mpeg', pcm: 'audio/l16;rate=24000;channels=1' } as const;
const STATUS_200 = statusLine(200);

export function registerSpeechRoute(app: TemplatedApp, context: DataPlaneContext): void {
  app.post('/v1/audio/speech', (res, req) => {
    // uWS forgets the request once this function returns: read the headers first, once each.
    const exchange = new SpeechExchange(res, context, req.getHeader('authorization'));
    if (context.inFlight.draining) {
      // Closing the connection sends the client (or its load balancer) to another replica.
      return sendError(res, exchange, 'provider_unavailable', 'this replica is shutting down; retry', { closeConnection: true });
    }
    exchange.begin(req.getHeader('content-length'));
  });
}

/** Ends a request at the router's deadline (a shared function: no closure per request). */
function endAtDeadline(abort: AbortController): void {
  abort.abort(new RouterEndedStream('max_duration'));
}

/**
 * One speech request from its headers to its settlement. Its state lives in fields rather than in
 * closures and promise chains: the hot path allocates this object, the two callbacks uWS needs
 * (onAborted, onData) and one async run, and nothing per chunk.
 */
class SpeechExchange implements ResponseState {
  aborted = false;
  responded = false;
  wakeWriter?: () => void = undefined;
  readonly abort = new AbortController();
  /** The key's concurrency slot, once admitted; freed the moment the response has ended. */
  private slot: StreamSlot | undefined = undefined;
  private finished: (() => void) | undefined = undefined;
  private chunks: Buffer[] | undefined = undefined;
  private size = 0;
  private bodyDone = false;
  /** The chunk the corked writer sends, and whether the headers went out with an earlier one. */
  private chunk: Uint8Array | undefined = undefined;
  private writable = true;
  private headersWritten = false;
  private plan: SpeechPlan | undefined = undefined;
  private reservationId = '';
  private warnings: string[] = [];
  private readonly writeCorked = () => this.writeChunk();

  constructor(
    private readonly res: HttpResponse,
    private readonly context: DataPlaneContext,
    private readonly authorization: string,
  ) {
    attachState(res, this);
    res.onAborted(() => this.onAborted());
  }

  /** Must run synchronously inside the route handler (uWS drops body data otherwise). */
  begin(contentLength: string): void {
    this.finished = this.context.inFlight.begin(this.abort);
    // A declared Content-Length over the limit is refused before a single byte is read.
    const declared = contentLength === '' ? undefined : Number(contentLength);
    if (declared !== undefined && (!Number.isFinite(declared) || declared > MAX_SPEECH_BODY_BYTES)) {
      this.bodyDone = true;
      void this.run(undefined);
      return;
    }
    this.res.onData((chunk, isLast) => this.receive(chunk, isLast));
  }

  private onAborted(): void {
    this.aborted = true;
    this.wakeWriter?.();
    this.abort.abort();
    // A client that leaves while its body is still arriving: no run will ever start, so end here.
    if (!this.bodyDone) {
      this.bodyDone = true;
      this.end();
    }
  }

  private receive(chunk: ArrayBuffer | Uint8Array, isLast: boolean): void {
    if (this.bodyDone) return;
    this.size += chunk.byteLength;
    if (this.size > MAX_SPEECH_BODY_BYTES) {
      this.bodyDone = true;
      this.chunks = undefined;
      void this.run(undefined);
      return;
    }
    // uWS reuses the chunk's memory after this callback returns, so it must be copied (an ArrayBuffer
    // from uWS, a Uint8Array from the node:http adapter).
    const copy = chunk instanceof ArrayBuffer ? Buffer.from(chunk.slice(0)) : Buffer.from(chunk);
    if (!isLast) {
      (this.chunks ??= []).push(copy);
      return;
    }
    this.bodyDone = true;
    const chunks = this.chunks;
    this.chunks = undefined;
    void this.run(chunks === undefined ? copy : Buffer.concat([...chunks, copy], this.size));
  }

  /** `body` undefined: it was over the size limit. */
  private async run(body: Buffer | undefined): Promise<void> {
    try {
      await this.serve(body);
    } catch (error) {
      this.context.logger.error('speech request failed unexpectedly', { error });
      sendError(this.res, this, 'internal_error');
    }
    this.end();
  }

  private end(): void {
    this.slot?.release();
    this.slot = undefined;
    const finished = this.finished;
    this.finished = undefined;
    finished?.();
  }

  private async serve(body: Buffer | undefined): Promise<void> {
    const { res, context } = this;
    if (body === undefined) {
      return sendError(res, this, 'invalid_body', `body exceeds ${MAX_SPEECH_BODY_BYTES} bytes`, { closeConnection: true });
    }
    const credential = await context.auth.identify(this.authorization);
    if (this.aborted) return;
    if (!credential) return sendError(res, this, 'unauthorized', 'a valid pk_ API key is required (Authorization: Bearer pk_…)');
    if (credential.kind !== 'api_key') return sendError(res, this, 'scope_required', 'speech needs a pk_ API key, not a session token (create one with `vr keys create`)');
    const { key } = credential;
    // Per-key limits: the rate, then a concurrency slot (one round trip on Redis), before anything is
    // reserved or sent upstream. Spend caps are checked atomically with the reservation below.
    if (context.limits) {
      const admission = await context.limits.openStream(key);
      if (!admission.ok) return sendLimitRefusal(res, this, admission.refusal);
      this.slot = admission.slot;
    }
    const planned = planSpeech(body, (id) => context.registry.descriptor(id));
    if (!planned.ok) return sendError(res, this, planned.code, planned.details);
    const { plan } = planned;
    this.plan = plan;
    if (!context.registry.isAvailable(plan.provider)) {
      return sendError(res, this, 'provider_unavailable', `${plan.provider} is not configured on this deployment (missing_api_key)`);
    }
    // The circuit breaker decides before any money is reserved; a half-open one admits a single probe.
    const admission = context.registry.admit(plan.provider);
    if (!admission.ok) return refuseOnBreaker(res, this, plan.provider, admission.rejection);

    const reservationId = crypto.randomUUID();
    this.reservationId = reservationId;
    const reservation = await reserveCredit(context.sql, {
      reservationId, accountId: key.accountId, apiKeyId: key.id, amountMicros: plan.costMicros,
      provider: plan.provider, model: plan.input.modelId, characters: plan.characters,
      dailySpendCapMicros: key.dailySpendCapMicros, monthlySpendCapMicros: key.monthlySpendCapMicros,
    });
    if (!reservation.ok) {
      // Nothing goes upstream: a half-open breaker's probe slot is free for another request.
      admission.permit.release();
      if (reservation.reason !== 'insufficient_credit') return sendSpendCapRefusal(res, this, reservation);
      return sendError(res, this, 'insufficient_credit', `this request costs ${plan.costMicros} micro-dollars; add credit or shorten the input`);
    }

    const { signal } = this.abort;
    const deadline = setTimeout(endAtDeadline, context.streamMaxDurationMs, this.abort);
    try {
      let result: SpeechResult;
      try {
        result = await context.registry.synthesize(plan.provider, plan.input, { signal, permit: admission.permit });
      } catch (error) {
        const settleVoid: SettleVoid = (errorCode, metadata) => this.settleVoid(errorCode, metadata);
        if (this.aborted) return settleVoid('client_closed');
        const ended = routerEndCause(signal);
        if (ended) return endBeforeAudio(res, this, plan, ended, settleVoid);
        return failBeforeAudio(res, this, plan, error, settleVoid, context);
      }
      await this.streamAudio(plan, result);
    } finally {
      clearTimeout(deadline);
    }
  }

  private settleVoid(errorCode: string, metadata?: Record<string, unknown>): void {
    this.context.settler.settle({ action: 'void', reservationId: this.reservationId, errorCode, metadata });
  }

  /** Inside cork: the headers with the first chunk, then the chunk; no chunk ends the response. */
  private writeChunk(): void {
    const { res } = this;
    if (this.chunk === undefined) {
      res.end();
      return;
    }
    if (!this.headersWritten) {
      const plan = this.plan!;
      this.headersWritten = true;
      this.responded = true;
      res.writeStatus(STATUS_200)
        .writeHeader('content-type', CONTENT_TYPES[plan.input.format])
        .writeHeader(SPEECH_HEADERS.provider, plan.provider)
        .writeHeader(SPEECH_HEADERS.costMicros, plan.costMicros.toString())
        .writeHeader(SPEECH_HEADERS.requestId, this.reservationId);
      if (this.warnings.length) res.writeHeader(SPEECH_HEADERS.warnings, headerSafe(this.warnings.join('; ')));
    }
    this.writable = res.write(this.chunk!);
  }

  private async streamAudio(plan: SpeechPlan, result: SpeechResult): Promise<void> {
    const { res, context } = this;
    const { signal } = this.abort;
    this.warnings = result.warnings.length ? [...plan.warnings, ...result.warnings] : plan.warnings;
    let deliveredBytes = 0;
    let upstreamFailed = false;
    let failure: unknown;
    try {
      for await (const chunk of result.audio) {
        if (this.aborted) break;
        this.chunk = chunk;
        res.cork(this.writeCorked);
        this.chunk = undefined;
        deliveredBytes += chunk.byteLength;
        if (!this.writable) await waitForWritable(res, this, signal);
        // The router's deadline or a shutdown: stop here rather than pull another chunk from upstream.
        if (signal.aborted) break;
      }
    } catch (error) {
      upstreamFailed = !this.aborted && routerEndCause(signal) === undefined;
      failure = error;
      if (upstreamFailed) {
        context.logger.warn('upstream failed mid-stream', {
          provider: plan.provider, deliveredBytes, category: error instanceof ProviderError ? error.category : 'unknown',
        });
      }
    }
    const { reservationId, headersWritten } = this;

    if (this.aborted) {
      // The client left. Charged only if it received audio: the provider has already done the work.
      if (deliveredBytes > 0 && headersWritten) {
        context.settler.settle({ action: 'commit', reservationId, metadata: { clientClosed: true, deliveredBytes } });
      } else {
        this.settleVoid('client_closed');
      }
      return;
    }
    const ended = routerEndCause(signal);
    if (ended) {
      // The provider did the work for what was delivered; the router chose to stop. Charged, ended cleanly.
      if (!headersWritten) return endBeforeAudio(res, this, plan, ended, (errorCode, metadata) => this.settleVoid(errorCode, metadata));
      res.cork(this.writeCorked);
      context.settler.settle({ action: 'commit', reservationId, metadata: { deliveredBytes, endedBy: ended } });
      return;
    }
    if (upstreamFailed) {
      const category = failure instanceof ProviderError ? failure.category : 'upstream_network_error';
      this.settleVoid('upstream_error', { midStream: true, deliveredBytes, category });
      if (headersWritten) res.close();
      else sendUpstreamFailure(res, this, plan.provider, category);
      return;
    }
    if (!headersWritten) {
      // The provider produced no audio at all: nothing to charge for.
      this.settleVoid('upstream_error', { emptyAudio: true, category: 'upstream_bad_response' });
      return sendUpstreamFailure(res, this, plan.provider, 'upstream_bad_response');
    }
    res.cork(this.writeCorked);
    context.settler.settle({ action: 'commit', reservationId, metadata: { deliveredBytes } });
  }
}

function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, 2000);
}

