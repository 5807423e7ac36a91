// Worker thread entry: owns one eSpeak NG instance and streams each job's audio back to the pool.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';
import { type SpeechEngine, loadEspeakEngine } from './espeak-engine.js';
import {
  SIGNAL_CANCELLED_JOB,
  SIGNAL_DISPATCHED_JOB,
  type SynthesisJob,
  type SynthesisWorkerData,
  type SynthesizeMessage,
  type WorkerReply,
} from './protocol.js';
import { runSynthesisJob } from './synthesis-pipeline.js';

if (!parentPort) throw new Error('synthesis-worker must run as a worker thread');
const port = parentPort;
const signals = new Int32Array((workerData as SynthesisWorkerData).signals);

function reply(message: WorkerReply, transfer?: ArrayBuffer[]): void {
  port.postMessage(message, transfer);
}

const WARM_UP_BUDGET_MS = 3_000;
const WARM_UP_JOB: SynthesisJob = {
  text: 'Warming up the speech engine, one moment.',
  espeakVoice: 'en-us',
  rate: 175,
  format: 'mp3',
};

// eSpeak NG (wasm2js output, i.e. plain JavaScript) and the resampler run several times slower until V8
// has optimised them: about two seconds of work. Doing that work at start-up keeps first requests fast,
// and it yields to the first real job within one ~100 ms audio block.
async function warmUp(engine: SpeechEngine): Promise<void> {
  const jobArrived = () => Atomics.load(signals, SIGNAL_DISPATCHED_JOB) !== 0;
  const deadline = performance.now() + WARM_UP_BUDGET_MS;
  while (!jobArrived() && performance.now() < deadline) {
    runSynthesisJob(engine, WARM_UP_JOB, jobArrived, () => {});
    await nextTurn();
  }
}

const enginePromise = loadEspeakEngine();
// A failed load rejects here without a handler, which ends the worker with an 'error' the pool sees.
// Warm-up is only an optimisation: if it fails, the first real job reports the same problem instead.
void enginePromise.then((engine) => {
  reply({ type: 'ready' });
  return warmUp(engine).catch(() => {});
});

async function handle(message: SynthesizeMessage): Promise<void> {
  const { id } = message;
  try {
    const engine = await enginePromise;
    runSynthesisJob(
      engine,
      message,
      () => Atomics.load(signals, SIGNAL_CANCELLED_JOB) === id,
      (bytes) => {
        // Transfer rather than copy; a view into a larger buffer is copied once so it owns its memory.
        const owned = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
        const buffer = owned.buffer as ArrayBuffer;
        reply({ type: 'chunk', id, data: buffer }, [buffer]);
      },
    );
    reply({ type: 'done', id });
  } catch (error) {
    reply({ type: 'failed', id, message: error instanceof Error ? error.message : String(error) });
  }
}

// The pool sends one job at a time per worker; chaining only guards the wait for the engine.
let previous: Promise<void> = Promise.resolve();
port.on('message', (message: SynthesizeMessage) => {
  previous = previous.then(() => handle(message));
});
