// Starts one upstream attempt and waits for its first audio chunk under a deadline. Afterwards the audio is
// pulled chunk by chunk (backpressure); leaving early or aborting the caller's signal cancels upstream.
// Shared by HTTP adapters and the in-process local synthesizer.

import { InvalidSpeechRequestError, ProviderError } from '../errors.js';
import type { KnowsItsEnd, UpstreamAudioSource } from '../types.js';
import { LightAbortSignal, type AbortSignalLike } from './light-abort-signal.js';

export interface OpenAudioStreamOptions {
  provider: string;
  /** The caller's signal: aborting it cancels the attempt before or after the first byte. */
  signal: AbortSignalLike;
  /** Deadline for the first audio byte, counted from the start of the attempt (connect + headers + first chunk). */
  firstByteTimeoutMs: number;
  /** Starts the upstream work bound to `attemptSignal` and returns its audio; throws ProviderError on upstream failure. */
  open(attemptSignal: AbortSignalLike): Promise<UpstreamAudioSource>;
  /** Turns unexpected failures (socket errors, engine crashes) into a ProviderError. */
  mapError(error: unknown, phase: 'before-first-byte' | 'streaming'): Error;
}

function isKnownError(error: unknown): error is ProviderError | InvalidSpeechRequestError {
  return error instanceof ProviderError || error instanceof InvalidSpeechRequestError;
}

/** One pass over upstream audio: the first chunk is already in hand; `return()` cancels upstream. */
class UpstreamAudio implements AsyncIterableIterator<Uint8Array>, KnowsItsEnd {
  #first: Uint8Array | undefined;
  #finished = false;

  constructor(
    first: Uint8Array,
    private readonly source: UpstreamAudioSource,
    private readonly attempt: LightAbortSignal,
    private readonly callerSignal: AbortSignalLike,
    private readonly release: () => void,
    private readonly mapError: (error: unknown) => Error,
  ) {
    this.#first = first;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** No chunk will follow the ones handed out (false when the source cannot tell). */
  exhausted(): boolean {
    return this.#first === undefined && (this.#finished || this.source.exhausted?.() === true);
  }

  async next(): Promise<IteratorResult<Uint8Array>> {
    if (this.#finished) return { done: true, value: undefined };
    const first = this.#first;
    if (first) {
      this.#first = undefined;
      return { done: false, value: first };
    }
    try {
      for (;;) {
        // A converting source may still hold output of a chunk read before the abort: none of it goes out.
        if (this.callerSignal.aborted) throw this.callerSignal.reason;
        const result = await this.source.next();
        if (result.done) {
          this.#finished = true;
          this.release();
          return { done: true, value: undefined };
        }
        if (result.value.byteLength > 0) return { done: false, value: result.value };
      }
    } catch (error) {
      await this.#cancel();
      if (this.callerSignal.aborted) throw this.callerSignal.reason;
      throw isKnownError(error) ? error : this.mapError(error);
    }
  }

  async return(): Promise<IteratorResult<Uint8Array>> {
    await this.#cancel();
    return { done: true, value: undefined };
  }

  async #cancel(): Promise<void> {
    if (this.#finished) return;
    this.#finished = true;
    this.#first = undefined;
    this.release();
    this.attempt.abort(new DOMException('audio stream cancelled', 'AbortError'));
    try {
      await this.source.return?.();
    } catch {
      // The source is being torn down; its own error is irrelevant now.
    }
  }
}

/** What `openingAborted` settles with once the first chunk is in hand (nothing races it after that). */
const OPENED = Symbol('opened');

export async function openAudioStream(options: OpenAudioStreamOptions): Promise<AsyncIterableIterator<Uint8Array> & KnowsItsEnd> {
  // Not `options` itself in any closure below: the stream would keep `open`, and with it the request it
  // sends (its body holds the whole input), for as long as it runs.
  const { signal, provider, firstByteTimeoutMs, mapError } = options;
  signal.throwIfAborted();
  const attempt = new LightAbortSignal();
  // Every abort of the attempt goes through here (the caller's abort, the deadline, a failure), so the
  // opening steps are raced against this promise instead of a listener on the attempt's own signal.
  let abortOpening!: (reason: unknown) => void;
  const openingAborted = new Promise<never>((_resolve, reject) => (abortOpening = reject));
  openingAborted.catch(() => undefined);
  const abortAttempt = (reason: unknown) => {
    attempt.abort(reason);
    abortOpening(reason);
  };
  // Built only when the deadline fires: an Error captures a stack trace, too costly for every attempt.
  let timeoutError: ProviderError | undefined;
  const onCallerAbort = () => abortAttempt(signal.reason);
  signal.addEventListener('abort', onCallerAbort, { once: true });
  const release = () => signal.removeEventListener('abort', onCallerAbort);
  const timer = setTimeout(() => {
    timeoutError = new ProviderError({
      provider, kind: 'timeout', category: 'upstream_timeout', isRetryable: true, detail: `no audio within ${firstByteTimeoutMs} ms`,
    });
    abortAttempt(timeoutError);
  }, firstByteTimeoutMs);

  const opening = options.open(attempt);
  let source: UpstreamAudioSource | undefined;
  try {
    // Rejects as soon as the attempt is aborted, even if `open` ignores its signal, so the deadline always holds.
    source = await Promise.race([opening, openingAborted]);
    let first = await Promise.race([source.next(), openingAborted]);
    while (!first.done && first.value.byteLength === 0) first = await Promise.race([source.next(), openingAborted]);
    if (first.done) {
      throw new ProviderError({ provider, kind: 'protocol', category: 'upstream_bad_response', isRetryable: false, detail: 'empty audio body' });
    }
    clearTimeout(timer);
    // Each race above left a reaction on `openingAborted`, holding the race's own result: the first
    // chunk. Settling it lets those reactions go, so the first chunk is not kept for the whole stream
    // (a heap snapshot at 1,000 open streams found 35 MB of first chunks held this way).
    abortOpening(OPENED);
    // The deadline may have fired in the same tick the chunk arrived; the abort already tore upstream down.
    attempt.throwIfAborted();
    return new UpstreamAudio(first.value, source, attempt, signal, release, (error) => mapError(error, 'streaming'));
  } catch (error) {
    clearTimeout(timer);
    release();
    if (!attempt.aborted) abortAttempt(new DOMException('attempt failed', 'AbortError'));
    // If `open` ignored the signal and resolves later, still close what it opened.
    if (source) void source.return?.()?.catch(() => undefined);
    else opening.then((late) => late.return?.()?.catch(() => undefined), () => undefined);
    if (signal.aborted) throw signal.reason;
    if (timeoutError && attempt.reason === timeoutError) throw timeoutError;
    throw isKnownError(error) ? error : mapError(error, 'before-first-byte');
  }
}
