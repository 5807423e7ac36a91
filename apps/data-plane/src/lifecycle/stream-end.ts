// Why the router itself ended a stream. Such an end is not an upstream failure: audio that reached the
// client was produced (and billed) by the provider, so it is committed, never voided.
import type { AbortSignalLike } from '@voice-router/providers';

export type RouterEndCause = 'max_duration' | 'shutdown';

export class RouterEndedStream extends Error {
  override readonly name = 'RouterEndedStream';
  override readonly cause: RouterEndCause;

  constructor(cause: RouterEndCause) {
    super(cause === 'max_duration' ? 'stream reached STREAM_MAX_DURATION_MS' : 'the data plane is shutting down');
    this.cause = cause;
  }
}

/** The reason the router aborted a request's signal with, if it was the router. */
export function routerEndCause(signal: AbortSignalLike): RouterEndCause | undefined {
  return signal.aborted && signal.reason instanceof RouterEndedStream ? signal.reason.cause : undefined;
}
