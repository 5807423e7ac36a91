// The worker thread that owns PGlite in the embedded mode, so SQL never runs on the event loop that
// streams audio. Plain JavaScript on purpose: the same file runs from src/ (tests) and dist/ (build).
// The protocol is described in remote-pglite.ts, its only client.
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, messages } from '@electric-sql/pglite';

if (!parentPort) throw new Error('pglite-worker.js must run in a worker thread');
const port = parentPort;

/** @type {PGlite} */
let database;
try {
  database = await PGlite.create(workerData.dataDir ? { dataDir: workerData.dataDir, ...workerData.options } : workerData.options);
} catch (error) {
  port.postMessage({ id: 0, ok: false, error: serializeError(error) });
  // Let the main thread read the message, then end: nothing else keeps this thread alive.
  port.close();
}

/** Open transactions by id: the PGlite transaction object and the function that ends its callback. */
const transactions = new Map();
let nextTransactionId = 1;
/** Identity parsers per set of type ids the caller parses itself (see rawTypes in remote-pglite.ts). */
const rawParserSets = new Map();
/** Thrown inside a transaction callback so that PGlite itself runs ROLLBACK; never leaves the worker. */
const rollbackRequested = Symbol('rollback requested');

if (database) {
  collectStartupGarbage();
  port.on('message', handle);
  port.postMessage({ id: 0, ok: true });
}

/**
 * Creating a data dir runs initdb in its own WebAssembly instance, whose memory (a few hundred MB) is
 * garbage afterwards. On the main thread later allocations soon trigger the collections that free it;
 * this thread allocates too little, so it stayed resident (measured: ~720 MB at rest instead of ~380 MB
 * after a first start). One full collection a moment after start-up frees it (one right away did not).
 */
function collectStartupGarbage() {
  let gc;
  try {
    v8.setFlagsFromString('--expose-gc');
    gc = vm.runInNewContext('gc');
    v8.setFlagsFromString('--no-expose-gc');
  } catch {
    return; // Only memory is at stake.
  }
  setTimeout(gc, 1000).unref();
}

function handle(request) {
  switch (request.kind) {
    case 'query':
      return answer(request.id, runQuery(request));
    case 'exec':
      return answer(request.id, runExec(request));
    case 'begin':
      return begin(request.id);
    case 'end':
      return end(request);
    case 'tx-rollback':
      return answer(request.id, rollbackInside(request));
    case 'close':
      return answer(request.id, database.close());
    default:
      return answer(request.id, Promise.reject(new Error(`Unknown request kind ${request.kind}`)));
  }
}

function target(transactionId) {
  if (!transactionId) return database;
  const open = transactions.get(transactionId);
  if (!open) throw new Error('Transaction is closed');
  return open.transaction;
}

async function runQuery({ tx, text, values, rowMode, rawTypes }) {
  const options = rowMode || rawTypes ? { rowMode, parsers: rawTypes ? rawParsers(rawTypes) : undefined } : undefined;
  const result = await target(tx).query(text, values, options);
  // The blob (COPY … TO '/dev/blob') is not used by the router; everything else goes back as is.
  return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows, rowCount: result.rowCount, command: result.command };
}

async function runExec({ tx, text }) {
  await target(tx).exec(text);
}

/** Prisma's adapter rolls back through the transaction object, then ends the callback normally. */
async function rollbackInside({ tx }) {
  await target(tx).rollback();
}

function rawParsers(typeIds) {
  const key = typeIds.join(',');
  let parsers = rawParserSets.get(key);
  if (!parsers) {
    parsers = Object.fromEntries(typeIds.map((typeId) => [typeId, (text) => text]));
    rawParserSets.set(key, parsers);
  }
  return parsers;
}

/**
 * Starts a transaction that lives across messages: its callback holds PGlite's transaction lock until
 * an `end` message for its id arrives, so statements from other callers wait, as they do in-thread.
 */
function begin(id) {
  const transactionId = nextTransactionId++;
  let started = false;
  const finished = database.transaction((transaction) => {
    started = true;
    return new Promise((resolve, reject) => {
      transactions.set(transactionId, {
        transaction,
        finish(action) {
          transactions.delete(transactionId);
          if (action === 'commit') resolve(undefined);
          else reject(rollbackRequested);
        },
      });
      port.postMessage({ id, ok: true, value: transactionId });
    });
  });
  const open = { finished, endId: 0 };
  finished.then(
    () => port.postMessage({ id: open.endId, ok: true }),
    (error) => {
      if (!started) port.postMessage({ id, ok: false, error: serializeError(error) });
      else if (error === rollbackRequested) port.postMessage({ id: open.endId, ok: true });
      else port.postMessage({ id: open.endId, ok: false, error: serializeError(error) });
    },
  );
  pendingEnds.set(transactionId, open);
}

/** The reply to `end` waits for COMMIT or ROLLBACK to finish: `finished` above sends it. */
const pendingEnds = new Map();

function end({ id, tx, action }) {
  const open = transactions.get(tx);
  const pending = pendingEnds.get(tx);
  if (!open || !pending) {
    port.postMessage({ id, ok: false, error: serializeError(new Error('Transaction is closed')) });
    return;
  }
  pendingEnds.delete(tx);
  pending.endId = id;
  open.finish(action);
}

function answer(id, work) {
  Promise.resolve(work).then(
    (value) => port.postMessage({ id, ok: true, value }),
    (error) => port.postMessage({ id, ok: false, error: serializeError(error) }),
  );
}

/**
 * Errors cross the thread boundary as plain data: structured cloning keeps only an Error's message and
 * stack, and the ledger reads PostgreSQL's fields (code, constraint, detail, …).
 */
function serializeError(error) {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), database: false, fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'function') continue;
    try {
      fields[key] = structuredClone(value);
    } catch {
      // Not cloneable (e.g. the query options with their parser functions): left out.
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, database: error instanceof messages.DatabaseError, fields };
}
