// Fixed-size pool of synthesis worker threads; jobs wait in a bounded queue while every worker is busy,
// and beyond that bound are refused at once (SynthesizerBusyError) rather than queued without end.
import { Worker } from 'node:worker_threads';
import {
  SIGNAL_CANCELLED_JOB,
  SIGNAL_DISPATCHED_JOB,
  SIGNAL_SLOTS,
  type SynthesisJob,
  type SynthesisWorkerData,
  type SynthesizeMessage,
  type WorkerReply,
} from './protocol.js';
import { SynthesizerBusyError } from './errors.js';

/** Receives one job's results; after `done` or `fail` nothing more arrives. */
export interface JobSink {
  chunk(bytes: Uint8Array): void;
  done(): void;
  fail(error: Error): void;
}

export interface JobHandle {
  /** Stops the job if it has not finished; its sink hears nothing more. Safe to call repeatedly. */
  cancel(): void;
}

interface Task {
  job: SynthesisJob;
  sink: JobSink;
  state: 'queued' | 'running' | 'cancelling' | 'finished';
  slot?: Slot;
  id?: number;
  startedAt?: number;
}

interface Slot {
  worker: Worker;
  signals: Int32Array;
  lastJobId: number;
  ready: boolean;
  task?: Task;
}

// Workers inherit the parent's execArgv, and one started from `node --input-type=module -e …` refuses
// to run at all because of `--input-type`; every other inherited option is kept.
function inheritableExecArgv(): string[] {
  const kept: string[] = [];
  for (let index = 0; index < process.execArgv.length; index++) {
    const argument = process.execArgv[index]!;
    if (argument === '--input-type') index++;
    else if (!argument.startsWith('--input-type=')) kept.push(argument);
  }
  return kept;
}

export class WorkerPool {
  readonly #workerUrl: URL;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #queue: Task[] = [];
  #closed = false;
  #startupError: Error | undefined;
  readonly #size: number;
  readonly #maxQueued: number;
  /** Moving average of how long a job holds a worker; seeds the busy refusal's Retry-After. */
  #averageJobMs = 1_000;

  constructor(size: number, workerUrl: URL, maxQueued = Number.POSITIVE_INFINITY) {
    this.#workerUrl = workerUrl;
    this.#size = size;
    this.#maxQueued = maxQueued;
    // Start every worker now: loading and warming eSpeak NG takes a few hundred milliseconds that
    // should not land on the first request.
    for (let index = 0; index < size; index++) this.#spawn();
  }

  submit(job: SynthesisJob, sink: JobSink): JobHandle {
    const task: Task = { job, sink, state: 'queued' };
    const refusal = this.#closed ? new Error('The local synthesizer is closed') : this.#startupError;
    const full = !refusal && this.#idle.length === 0 && this.#queue.length >= this.#maxQueued;
    if (refusal || full) {
      task.state = 'finished';
      const error = refusal ?? new SynthesizerBusyError(Math.ceil(this.#averageJobMs / this.#size));
      queueMicrotask(() => sink.fail(error));
    } else {
      this.#queue.push(task);
      this.#dispatch();
    }
    return { cancel: () => this.#cancel(task) };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closedError = new Error('The local synthesizer was closed');
    for (const task of this.#queue.splice(0)) this.#finish(task)?.fail(closedError);
    const slots = [...this.#slots];
    for (const slot of slots) if (slot.task) this.#finish(slot.task)?.fail(closedError);
    this.#slots.clear();
    this.#idle.length = 0;
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): void {
    const signals = new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const workerData: SynthesisWorkerData = { signals };
    const worker = new Worker(this.#workerUrl, { workerData, execArgv: inheritableExecArgv() });
    const slot: Slot = { worker, signals: new Int32Array(signals), lastJobId: 0, ready: false };
    this.#slots.add(slot);
    this.#idle.push(slot);
    worker.on('message', (reply: WorkerReply) => this.#onReply(slot, reply));
    worker.on('error', (error) => this.#onWorkerLost(slot, error));
    worker.on('exit', (code) => this.#onWorkerLost(slot, new Error(`Synthesis worker exited with code ${code}`)));
  }

  #dispatch(): void {
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const slot = this.#idle.shift()!;
      const task = this.#queue.shift()!;
      task.state = 'running';
      task.slot = slot;
      task.id = ++slot.lastJobId;
      task.startedAt = performance.now();
      slot.task = task;
      const message: SynthesizeMessage = { type: 'synthesize', id: task.id, ...task.job };
      Atomics.store(slot.signals, SIGNAL_DISPATCHED_JOB, task.id);
      slot.worker.postMessage(message);
    }
  }

  #cancel(task: Task): void {
    if (task.state === 'queued') {
      this.#queue.splice(this.#queue.indexOf(task), 1);
      task.state = 'finished';
    } else if (task.state === 'running') {
      Atomics.store(task.slot!.signals, SIGNAL_CANCELLED_JOB, task.id!);
      task.state = 'cancelling';
    }
  }

  /** Marks a task finished and returns its sink if the caller may still report to it. */
  #finish(task: Task): JobSink | undefined {
    const listening = task.state === 'running' || task.state === 'queued';
    task.state = 'finished';
    if (task.slot?.task === task) task.slot.task = undefined;
    return listening ? task.sink : undefined;
  }

  #onReply(slot: Slot, reply: WorkerReply): void {
    if (reply.type === 'ready') {
      slot.ready = true;
      return;
    }
    const task = slot.task;
    if (!task || reply.id !== task.id) return;
    if (reply.type === 'chunk') {
      if (task.state === 'running') task.sink.chunk(new Uint8Array(reply.data));
      return;
    }
    const sink = this.#finish(task);
    this.#averageJobMs += (performance.now() - task.startedAt! - this.#averageJobMs) / 8;
    if (!this.#closed) {
      this.#idle.push(slot);
      this.#dispatch();
    }
    if (reply.type === 'done') sink?.done();
    else sink?.fail(new Error(`Local synthesis failed: ${reply.message}`));
  }

  #onWorkerLost(slot: Slot, error: Error): void {
    if (!this.#slots.delete(slot)) return;
    const idleIndex = this.#idle.indexOf(slot);
    if (idleIndex >= 0) this.#idle.splice(idleIndex, 1);
    if (slot.task) this.#finish(slot.task)?.fail(new Error(`Synthesis worker failed: ${error.message}`));
    if (this.#closed) return;
    if (!slot.ready) {
      // A worker that cannot even start (missing eSpeak data, say) would fail again if replaced;
      // once none is left, refuse work with the reason instead of queueing it forever.
      if (this.#slots.size > 0) return;
      this.#startupError = new Error(`Synthesis worker could not start: ${error.message}`);
      for (const task of this.#queue.splice(0)) this.#finish(task)?.fail(this.#startupError);
      return;
    }
    this.#spawn();
    this.#dispatch();
  }
}
