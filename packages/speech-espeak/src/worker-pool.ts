// Pool of up to `size` synthesis worker threads; jobs wait in a bounded queue while every worker is busy,
// and beyond that bound are refused at once (SynthesizerBusyError) rather than queued without end.
// Workers start when work arrives and stop after `idleMs` without any: one holds eSpeak NG and its
// WebAssembly memory, about 130 MB of RSS, which a router whose clients never ask for local speech
// should not carry. The first job after a quiet spell waits for a worker to load (a few hundred ms).
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '@voice-router/service-kit/worker-thread';
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
  /** Stops this worker once it has been idle for the pool's idleMs. */
  idleTimer?: NodeJS.Timeout;
}

export class WorkerPool {
  readonly #workerUrl: URL;
  readonly #slots = new Set<Slot>();
  readonly #idle: Slot[] = [];
  readonly #queue: Task[] = [];
  #closed = false;
  readonly #size: number;
  readonly #maxQueued: number;
  readonly #idleMs: number;
  /** Moving average of how long a job holds a worker; seeds the busy refusal's Retry-After. */
  #averageJobMs = 1_000;

  constructor(size: number, workerUrl: URL, maxQueued = Number.POSITIVE_INFINITY, idleMs = Number.POSITIVE_INFINITY) {
    this.#workerUrl = workerUrl;
    this.#size = size;
    this.#maxQueued = maxQueued;
    this.#idleMs = idleMs;
  }

  /** Worker threads running now (started and not yet stopped for idleness). */
  get workers(): number {
    return this.#slots.size;
  }

  submit(job: SynthesisJob, sink: JobSink): JobHandle {
    const task: Task = { job, sink, state: 'queued' };
    const refusal = this.#closed ? new Error('The local synthesizer is closed') : undefined;
    // A worker that is idle, or one that may still be started, takes the job without it queueing.
    const free = this.#idle.length + this.#size - this.#slots.size;
    const full = !refusal && free === 0 && this.#queue.length >= this.#maxQueued;
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
    for (const slot of slots) {
      clearTimeout(slot.idleTimer);
      if (slot.task) this.#finish(slot.task)?.fail(closedError);
    }
    this.#slots.clear();
    this.#idle.length = 0;
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  #spawn(): void {
    const signals = new SharedArrayBuffer(SIGNAL_SLOTS * Int32Array.BYTES_PER_ELEMENT);
    const workerData: SynthesisWorkerData = { signals };
    // With the process's Node options, as far as a worker may take them (see startWorkerThread).
    const worker = startWorkerThread(this.#workerUrl, { workerData });
    const slot: Slot = { worker, signals: new Int32Array(signals), lastJobId: 0, ready: false };
    this.#slots.add(slot);
    this.#idle.push(slot);
    worker.on('message', (reply: WorkerReply) => this.#onReply(slot, reply));
    worker.on('error', (error) => this.#onWorkerLost(slot, error));
    worker.on('exit', (code) => this.#onWorkerLost(slot, new Error(`Synthesis worker exited with code ${code}`)));
  }

  #dispatch(): void {
    // The job is posted at once; a worker still loading takes it when it is ready.
    try {
      while (this.#queue.length > this.#idle.length && this.#slots.size < this.#size) this.#spawn();
    } catch (error) {
      // No thread could be started (out of memory, say): the jobs no worker will take fail with the reason.
      const startError = new Error(`Synthesis worker could not start: ${(error as Error).message}`);
      for (const task of this.#queue.splice(this.#idle.length)) this.#finish(task)?.fail(startError);
    }
    while (this.#idle.length > 0 && this.#queue.length > 0) {
      const slot = this.#idle.shift()!;
      clearTimeout(slot.idleTimer);
      slot.idleTimer = undefined;
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
      if (!slot.task && Number.isFinite(this.#idleMs)) slot.idleTimer = setTimeout(() => this.#retire(slot), this.#idleMs).unref();
    }
    if (reply.type === 'done') sink?.done();
    else sink?.fail(new Error(`Local synthesis failed: ${reply.message}`));
  }

  /** Stops an idle worker; the next job starts another. */
  #retire(slot: Slot): void {
    const index = this.#idle.indexOf(slot);
    if (slot.task || index < 0) return;
    this.#idle.splice(index, 1);
    // Removed first, so its exit is not taken for a crash (#onWorkerLost ignores it).
    this.#slots.delete(slot);
    slot.worker.terminate().catch(() => undefined);
  }

  #onWorkerLost(slot: Slot, error: Error): void {
    if (!this.#slots.delete(slot)) return;
    clearTimeout(slot.idleTimer);
    const idleIndex = this.#idle.indexOf(slot);
    if (idleIndex >= 0) this.#idle.splice(idleIndex, 1);
    if (slot.task) this.#finish(slot.task)?.fail(new Error(`Synthesis worker failed: ${error.message}`));
    if (this.#closed) return;
    if (!slot.ready && this.#slots.size === 0) {
      // A worker that cannot even start (missing eSpeak data, say) would fail again if replaced at once:
      // the jobs waiting for it fail with the reason, and the next job tries a new worker.
      const startError = new Error(`Synthesis worker could not start: ${error.message}`);
      for (const task of this.#queue.splice(0)) this.#finish(task)?.fail(startError);
      return;
    }
    // Another worker takes what waits, started if the pool is below its size.
    this.#dispatch();
  }
}
