// Streaming MP3 encoding of 24 kHz mono samples through LAME compiled to WebAssembly: the `mp3.wasm` of
// the wasm-media-encoders package (MIT; LAME itself is LGPL), used unmodified and loaded at run time.
// LAME returns each MPEG frame as soon as it has enough samples for it, so bytes leave every ~24 ms of audio.
//
// The binding below is ours, written against the exports of that exact build (pinned in package.json;
// checked by its version string when first loaded): the package's own API only instantiates
// asynchronously, and an encoder must be ready synchronously when a conversion starts. One WebAssembly
// instance per live encoder: a flushed one's instance is reused, a dropped one's memory goes with it.
// LAME in WebAssembly takes ~3 ms of CPU per second of audio here, about a tenth of lamejs (pure JavaScript).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { TARGET_SAMPLE_RATE } from './output-description.js';

/**
 * Bit rate of MP3 the router encodes itself. 24 kHz mono is MPEG-2 Layer III (8–160 kbps); 64 kbps CBR is
 * transparent for speech at that bandwidth while staying small (8 KB per second of audio).
 */
export const TRANSCODED_MP3_BITRATE_KBPS = 64;

/** The build the binding was written against (its `version()` export). */
const EXPECTED_BUILD = 'wasm-media-encoders-0.7.0';

/** The little of the WebAssembly API used here (the project's TypeScript libs do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, (...args: never[]) => unknown>>) => { exports: unknown };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: WasmApi };

interface LameExports {
  memory: WasmMemory;
  _initialize(): void;
  version(): number;
  malloc(bytes: number): number;
  free(pointer: number): void;
  /** Reads 5 int32 at `params`: channels, sample rate, CBR kbps, VBR quality (float32; -1 for CBR), output rate. */
  enc_init(params: number): number;
  /** A pointer to one pointer per channel, each to room for `samples` float32 in [-1, 1]. */
  enc_get_pcm(encoder: number, samples: number): number;
  /** Encodes what enc_get_pcm's buffers hold; returns the bytes of MP3 now in the output buffer, or < 0. */
  enc_encode(encoder: number, samples: number): number;
  enc_flush(encoder: number): number;
  /** Frees the encoder; the instance can take another. */
  enc_free(encoder: number): void;
  enc_get_out_buf(encoder: number): number;
}

let compiled: object | undefined;

function lameModule(): object {
  if (!compiled) {
    const path = createRequire(import.meta.url).resolve('wasm-media-encoders/wasm/mp3');
    compiled = new wasm.Module(readFileSync(path));
  }
  return compiled;
}

function readCString(memory: WasmMemory, pointer: number): string {
  const bytes = new Uint8Array(memory.buffer, pointer, Math.min(64, memory.buffer.byteLength - pointer));
  const end = bytes.indexOf(0);
  return String.fromCharCode(...bytes.subarray(0, end < 0 ? bytes.length : end));
}

function newInstance(): LameExports {
  const instance = new wasm.Instance(lameModule(), {
    env: { emscripten_notify_memory_growth: () => undefined },
    wasi_snapshot_preview1: {
      proc_exit: (code: number) => {
        throw new Error(`LAME exited (${code})`);
      },
    },
  });
  const lame = instance.exports as unknown as LameExports;
  lame._initialize();
  const build = readCString(lame.memory, lame.version());
  if (build !== EXPECTED_BUILD) throw new Error(`mp3.wasm is ${build}, the binding expects ${EXPECTED_BUILD}`);
  return lame;
}

/**
 * Instances whose encoder was flushed and freed, for the next encoders. A new instance costs more CPU than
 * LAME's own set-up, and its 16 MB of memory counts towards V8's external-memory pressure, which starts a
 * collection every few instances. An encoder dropped without a flush (a client that went away) takes its
 * instance with it to the collector.
 */
const idleInstances: LameExports[] = [];
const MAX_IDLE_INSTANCES = 4;

/** One LAME encoder, alone in its WebAssembly instance while it lives. */
class LameEncoder {
  readonly #lame: LameExports;
  readonly #encoder: number;
  #flushed = false;

  constructor(bitrateKbps: number, sampleRate: number) {
    const lame = idleInstances.pop() ?? newInstance();
    const params = lame.malloc(20);
    if (!params) throw new Error('LAME: out of memory');
    const ints = new Int32Array(lame.memory.buffer, params, 5);
    ints[0] = 1;
    ints[1] = sampleRate;
    ints[2] = bitrateKbps;
    new Float32Array(lame.memory.buffer, params + 12, 1)[0] = -1;
    ints[4] = sampleRate;
    const encoder = lame.enc_init(params);
    lame.free(params);
    if (!encoder) throw new Error('LAME refused the encoder settings');
    this.#lame = lame;
    this.#encoder = encoder;
  }

  /** `samples` on the 16-bit scale (what the resampler gives), clipped to it. */
  encode(samples: Float32Array): Uint8Array {
    // After the flush the instance may serve another encoder: nothing of this one may touch it.
    if (this.#flushed) throw new Error('MP3 encoder used after its flush');
    const lame = this.#lame;
    const channels = lame.enc_get_pcm(this.#encoder, samples.length);
    if (!channels) throw new Error('LAME: out of memory');
    // Views made after the call: it may have grown the memory, which detaches older ones.
    const mono = new Int32Array(lame.memory.buffer, channels, 1)[0]!;
    const input = new Float32Array(lame.memory.buffer, mono, samples.length);
    for (let index = 0; index < samples.length; index++) {
      const value = samples[index]!;
      input[index] = (value > 32767 ? 32767 : value < -32768 ? -32768 : value) / 32768;
    }
    return this.#output(lame.enc_encode(this.#encoder, samples.length));
  }

  /** The last frames; then the encoder is freed and its instance kept for another. */
  flush(): Uint8Array {
    if (this.#flushed) throw new Error('MP3 encoder used after its flush');
    const last = this.#output(this.#lame.enc_flush(this.#encoder));
    this.#flushed = true;
    this.#lame.enc_free(this.#encoder);
    if (idleInstances.length < MAX_IDLE_INSTANCES) idleInstances.push(this.#lame);
    return last;
  }

  /** A copy: the output buffer is reused by the next call. */
  #output(length: number): Uint8Array {
    if (length < 0) throw new Error(`LAME failed to encode (${length})`);
    if (length === 0) return new Uint8Array(0);
    return new Uint8Array(this.#lame.memory.buffer, this.#lame.enc_get_out_buf(this.#encoder), length).slice();
  }
}

/**
 * Building an encoder (an instance and LAME's tables) takes ~3–5 ms of CPU here: too much to spend between an
 * upstream's first byte and ours. For each setting in use (bit rate and sample rate: the router's conversions
 * use one, the local synthesizer another) one spare encoder is built ahead, off the request path (on a timer
 * after the previous one was taken), so a request normally starts with one ready.
 */
const spares = new Map<string, LameEncoder>();
const refillsPending = new Set<string>();

function scheduleSpare(key: string, bitrateKbps: number, sampleRate: number): void {
  if (refillsPending.has(key) || spares.has(key)) return;
  refillsPending.add(key);
  setTimeout(() => {
    refillsPending.delete(key);
    if (spares.has(key)) return;
    try {
      spares.set(key, new LameEncoder(bitrateKbps, sampleRate));
    } catch {
      // Thrown here, on a timer, it would end the process. Without a spare the next request builds its own
      // encoder, and the same failure reaches that request as an error of its own.
    }
  }, 0).unref();
}

function takeEncoder(bitrateKbps: number, sampleRate: number): LameEncoder {
  const key = `${bitrateKbps}:${sampleRate}`;
  const ready = spares.get(key);
  if (ready) spares.delete(key);
  scheduleSpare(key, bitrateKbps, sampleRate);
  return ready ?? new LameEncoder(bitrateKbps, sampleRate);
}

export class StreamingMp3Encoder {
  readonly #lame: LameEncoder;

  constructor(bitrateKbps = TRANSCODED_MP3_BITRATE_KBPS, sampleRate = TARGET_SAMPLE_RATE) {
    this.#lame = takeEncoder(bitrateKbps, sampleRate);
  }

  /** Samples on the 16-bit scale; returns the frames they completed (often none for short blocks). */
  encode(samples: Float32Array): Uint8Array {
    return samples.length === 0 ? new Uint8Array(0) : this.#lame.encode(samples);
  }

  /** The last partial frame, padded. */
  flush(): Uint8Array {
    return this.#lame.flush();
  }
}
