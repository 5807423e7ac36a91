// Messages between the synthesizer on the main thread and its worker threads.
import type { AudioFormat } from './audio-encoders.js';

/** Everything a worker needs for one request; already validated on the main thread. */
export interface SynthesisJob {
  text: string;
  espeakVoice: string;
  /** eSpeak NG words per minute. */
  rate: number;
  format: AudioFormat;
}

export interface SynthesizeMessage extends SynthesisJob {
  type: 'synthesize';
  /** Per worker, increasing; the worker stops a job once its id appears in the shared cancel flag. */
  id: number;
}

export type WorkerReply =
  | { type: 'ready' }
  | { type: 'chunk'; id: number; data: ArrayBuffer }
  | { type: 'done'; id: number }
  | { type: 'failed'; id: number; message: string };

/**
 * Int32 slots shared with each worker. Shared memory rather than messages because a busy worker is
 * inside synchronous synthesis and reads no messages until it is done.
 */
export const SIGNAL_CANCELLED_JOB = 0;
/** Last job id handed to the worker; a non-zero value tells the start-up warm-up to give way. */
export const SIGNAL_DISPATCHED_JOB = 1;
export const SIGNAL_SLOTS = 2;

export interface SynthesisWorkerData {
  signals: SharedArrayBuffer;
}
