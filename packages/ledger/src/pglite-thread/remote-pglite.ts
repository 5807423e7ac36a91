// PGlite on a worker thread, seen from the main thread as the part of PGlite's API that the ledger's
// SQL client and Prisma's PGlite adapter call (query, exec, transaction, close). The main thread only
// posts messages; every statement runs in pglite-worker.js.
//
// Protocol: each request carries an id and gets one reply { id, ok, value | error }. A transaction is
// `begin` (the reply is its id), then statements tagged with that id, then `end` (commit or rollback),
// whose reply comes after COMMIT/ROLLBACK ran. While it is open the worker's PGlite holds its
// transaction lock, so other statements wait exactly as they do in-thread.
import type { Worker } from 'node:worker_threads';
import { startWorkerThread } from '@voice-router/service-kit/worker-thread';
import { messages, type PGliteOptions, type QueryOptions, type Results } from '@electric-sql/pglite';

/** What a transaction callback receives: a subset of PGlite's Transaction. */
export interface PgliteTransactionLike {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<unknown>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

/** The PGlite surface the ledger uses, implemented by PGlite itself and by RemotePglite. */
export interface PgliteConnection {
  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(text: string): Promise<unknown>;
  transaction<T>(work: (transaction: PgliteTransactionLike) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  database: boolean;
  fields: Record<string, unknown>;
}

type Reply = { id: number; ok: true; value?: unknown } | { id: number; ok: false; error: SerializedError };

type Request =
  | { kind: 'query'; tx: number; text: string; values?: unknown[]; rowMode?: 'array' | 'object'; rawTypes?: number[] }
  | { kind: 'exec'; tx: number; text: string }
  | { kind: 'begin' }
  | { kind: 'end'; tx: number; action: 'commit' | 'rollback' }
  | { kind: 'tx-rollback'; tx: number }
  | { kind: 'close' };

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

const workerFile = new URL('./pglite-worker.js', import.meta.url);

/** Type ids of a caller's own parsers, computed once per parsers object (Prisma passes one constant). */
const parserTypeIds = new WeakMap<object, number[]>();

export class RemotePglite implements PgliteConnection {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  /** Set once the worker is gone (closed, crashed): every later request fails with it. */
  #gone: Error | undefined;
  #crash: Error | undefined;
  #closing: Promise<void> | undefined;

  private constructor(worker: Worker) {
    this.#worker = worker;
    worker.on('message', (reply: Reply) => this.#settle(reply));
    worker.on('error', (error) => {
      this.#crash = error;
    });
    worker.on('messageerror', (error) => {
      this.#crash = error;
    });
    worker.on('exit', (code) => {
      const cause = this.#crash;
      const error = this.#closing
        ? new Error('PGlite is closed')
        : new Error(`The PGlite worker thread exited (code ${code})${cause ? `: ${cause.message}` : ''}`, { cause });
      this.#gone = error;
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      for (const request of pending) request.reject(error);
    });
  }

  /** Starts the worker and opens PGlite in it; rejects with PGlite's own error if that fails. */
  static async start(options: { dataDir?: string; options: PGliteOptions }): Promise<RemotePglite> {
    // With the process's Node options (see startWorkerThread).
    const worker = startWorkerThread(workerFile, { workerData: options });
    const remote = new RemotePglite(worker);
    // Id 0 is the worker's "ready" (or its start-up failure).
    const ready = new Promise<unknown>((resolve, reject) => remote.#pending.set(0, { resolve, reject }));
    try {
      await ready;
    } catch (error) {
      await worker.terminate();
      throw error;
    }
    // Idle, the worker does not keep the process alive (an in-thread PGlite does not either);
    // a request in flight does, see #request.
    worker.unref();
    return remote;
  }

  query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.#query(0, text, params, options);
  }

  async exec(text: string): Promise<unknown> {
    await this.#request({ kind: 'exec', tx: 0, text });
    // Callers here ignore exec's per-statement results, so they do not cross the boundary.
    return [];
  }

  async transaction<T>(work: (transaction: PgliteTransactionLike) => Promise<T>): Promise<T> {
    const tx = (await this.#request({ kind: 'begin' })) as number;
    let closed = false;
    const check = () => {
      if (closed) throw new Error('Transaction is closed');
    };
    const transaction: PgliteTransactionLike = {
      query: async (text, params, options) => {
        check();
        return this.#query(tx, text, params, options);
      },
      exec: async (text) => {
        check();
        await this.#request({ kind: 'exec', tx, text });
        return [];
      },
      rollback: async () => {
        check();
        await this.#request({ kind: 'tx-rollback', tx });
        closed = true;
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await work(transaction);
    } catch (error) {
      closed = true;
      await this.#request({ kind: 'end', tx, action: 'rollback' }).catch(() => undefined);
      throw error;
    }
    closed = true;
    await this.#request({ kind: 'end', tx, action: 'commit' });
    return result;
  }

  /** Closes PGlite in the worker, then ends the thread. Safe to call twice or after a crash. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      if (!this.#gone) await this.#request({ kind: 'close' }).catch(() => undefined);
      await this.#worker.terminate();
    })();
    return this.#closing;
  }

  /** Ends the thread abruptly, as a crash would (tests only). */
  async terminateForTest(): Promise<void> {
    await this.#worker.terminate();
  }

  async #query<T>(tx: number, text: string, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<Results<T>> {
    if (options?.serializers || options?.blob || options?.onNotice) throw new Error('The PGlite worker does not take serializers, blobs or notice callbacks');
    const parsers = options?.parsers;
    // A caller's parsers are functions, which cannot cross to the worker: the worker leaves those
    // types' values as text and they are parsed here, as PGlite would have (its own parsers first).
    const rawTypes = parsers ? typeIdsOf(parsers) : undefined;
    const result = (await this.#request({ kind: 'query', tx, text, values: params, rowMode: options?.rowMode, rawTypes })) as Results<T>;
    if (parsers && rawTypes!.length > 0) applyParsers(result, parsers, options?.rowMode === 'array');
    return result;
  }

  #request(request: Request): Promise<unknown> {
    if (this.#gone) return Promise.reject(this.#gone);
    if (this.#closing && request.kind !== 'close') return Promise.reject(new Error('PGlite is closed'));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref();
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ id, ...request });
    });
  }

  #settle(reply: Reply): void {
    const pending = this.#pending.get(reply.id);
    if (!pending) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0 && reply.id !== 0) this.#worker.unref();
    if (reply.ok) pending.resolve(reply.value);
    else pending.reject(reviveError(reply.error));
  }
}

function typeIdsOf(parsers: NonNullable<QueryOptions['parsers']>): number[] {
  let typeIds = parserTypeIds.get(parsers);
  if (!typeIds) {
    typeIds = Object.keys(parsers).map(Number);
    parserTypeIds.set(parsers, typeIds);
  }
  return typeIds;
}

function applyParsers(result: Results<unknown>, parsers: NonNullable<QueryOptions['parsers']>, arrayRows: boolean): void {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    for (const row of result.rows as Array<Record<string | number, unknown>>) {
      const key = arrayRows ? index : field.name;
      const text = row[key];
      if (text !== null && text !== undefined) row[key] = (parse as (text: string, typeId: number) => unknown)(text as string, field.dataTypeID);
    }
  });
}

/** Rebuilds a worker's error with its fields; a PostgreSQL error is a PGlite DatabaseError again. */
function reviveError(serialized: SerializedError): Error {
  const { fields } = serialized;
  const error: Error = serialized.database
    ? new messages.DatabaseError(serialized.message, Number(fields.length ?? 0), (fields.name as messages.MessageName | undefined) ?? 'error')
    : new Error(serialized.message);
  Object.assign(error, fields);
  if (!serialized.database && serialized.name !== 'Error') error.name = serialized.name;
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
