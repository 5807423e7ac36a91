// The main-thread side: validates requests, hands them to the worker pool and exposes the audio as an
// async iterable that cancels the work when the caller aborts or stops reading.
import { ChunkChannel } from './chunk-channel.js';
import { ESPEAK_DEFAULT_RATE, ESPEAK_MAX_RATE, ESPEAK_MIN_RATE } from './espeak-engine.js';
import { UnknownVoiceError } from './errors.js';
import type { SynthesisJob } from './protocol.js';
import { type LocalVoice, findVoice, listVoices } from './voices.js';
import { WorkerPool } from './worker-pool.js';

export interface LocalSynthesisRequest {
  text: string;
  /** An id from `voices()`. */
  voice: string;
  format: 'mp3' | 'pcm';
  /** 0.25..4, 1 = normal; eSpeak NG cannot go below 80 or above 450 words per minute, so extremes clamp. */
  speed?: number;
}

/** What synthesize() uses of its signal: an AbortSignal, or anything with the same members (a router's attempt). */
export type CancelSignal = Pick<AbortSignal, 'aborted' | 'reason' | 'throwIfAborted' | 'addEventListener' | 'removeEventListener'>;

export interface LocalSynthesizer {
  voices(): LocalVoice[];
  /**
   * Streams audio: pcm = raw signed 16-bit little-endian, 24,000 Hz, mono, no header; mp3 = MPEG-2
   * Layer III, 24,000 Hz mono, 48 kbps CBR. Chunks arrive while synthesis proceeds. Aborting `signal`
   * or leaving the loop early stops the work promptly. Throws UnknownVoiceError synchronously.
   */
  synthesize(request: LocalSynthesisRequest, signal?: CancelSignal): AsyncIterable<Uint8Array>;
  /** Worker threads running now: none before the first request, and none again after idleTimeoutMs without one. */
  workerThreads(): number;
  /** Ends the worker threads; pending and later requests fail. */
  close(): Promise<void>;
}

const MIN_SPEED = 0.25;
const MAX_SPEED = 4;

export function speedToRate(speed = 1): number {
  if (!Number.isFinite(speed) || speed <= 0) throw new RangeError(`speed must be a positive number, got ${speed}`);
  const clampedSpeed = Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
  return Math.min(ESPEAK_MAX_RATE, Math.max(ESPEAK_MIN_RATE, Math.round(ESPEAK_DEFAULT_RATE * clampedSpeed)));
}

function toJob(request: LocalSynthesisRequest): SynthesisJob {
  const voice = findVoice(request.voice);
  if (!voice) throw new UnknownVoiceError(request.voice);
  if (request.format !== 'mp3' && request.format !== 'pcm') {
    throw new TypeError(`format must be "mp3" or "pcm", got ${String(request.format)}`);
  }
  if (typeof request.text !== 'string') throw new TypeError('text must be a string');
  return {
    text: request.text,
    espeakVoice: voice.espeakName,
    rate: speedToRate(request.speed),
    format: request.format,
  };
}

async function* streamJob(pool: WorkerPool, job: SynthesisJob, signal?: CancelSignal): AsyncGenerator<Uint8Array> {
  signal?.throwIfAborted();
  const channel = new ChunkChannel();
  const handle = pool.submit(job, channel);
  const onAbort = () => {
    handle.cancel();
    channel.fail(signal!.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const chunk = await channel.next();
      if (!chunk) return;
      yield chunk;
    }
  } finally {
    // Runs on completion, on abort, and when the consumer breaks out of its loop.
    signal?.removeEventListener('abort', onAbort);
    handle.cancel();
  }
}

export interface LocalSynthesizerOptions {
  /** Worker threads at most, started as requests need them. Default 1. */
  workers?: number;
  /** A worker with no request for this long stops (it holds ~130 MB). Default: never. */
  idleTimeoutMs?: number;
  /** Jobs that may wait for a worker; beyond it synthesize() fails with SynthesizerBusyError. Default: unbounded. */
  maxQueued?: number;
}

export function createLocalSynthesizer(options: LocalSynthesizerOptions = {}): LocalSynthesizer {
  const workers = options.workers ?? 1;
  if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be a positive integer, got ${workers}`);
  const maxQueued = options.maxQueued ?? Number.POSITIVE_INFINITY;
  if (!(maxQueued >= 0)) throw new RangeError(`maxQueued must be zero or more, got ${maxQueued}`);
  const idleTimeoutMs = options.idleTimeoutMs ?? Number.POSITIVE_INFINITY;
  if (!(idleTimeoutMs > 0)) throw new RangeError(`idleTimeoutMs must be positive, got ${idleTimeoutMs}`);
  const pool = new WorkerPool(workers, new URL('./synthesis-worker.js', import.meta.url), maxQueued, idleTimeoutMs);
  return {
    voices: listVoices,
    // Not an async generator itself: validation must throw here, before the caller starts streaming.
    synthesize: (request, signal) => streamJob(pool, toJob(request), signal),
    workerThreads: () => pool.workers,
    close: () => pool.close(),
  };
}
