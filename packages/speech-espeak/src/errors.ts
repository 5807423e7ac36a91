// Errors callers are expected to tell apart from other failures.

/** The requested voice id is not one of `voices()`; thrown before any work starts. */
export class UnknownVoiceError extends Error {
  readonly voice: string;

  constructor(voice: string) {
    super(`Unknown local voice "${voice}"`);
    this.name = 'UnknownVoiceError';
    this.voice = voice;
  }
}

/** Every worker is busy and the queue of waiting jobs is full; nothing was started. */
export class SynthesizerBusyError extends Error {
  /** A guess at when a queue place frees: the average job time spread over the workers. */
  readonly retryAfterMs: number;

  constructor(retryAfterMs: number) {
    super('The local synthesizer is busy: every worker is working and the queue is full');
    this.name = 'SynthesizerBusyError';
    this.retryAfterMs = retryAfterMs;
  }
}
