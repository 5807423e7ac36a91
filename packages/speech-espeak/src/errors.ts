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
