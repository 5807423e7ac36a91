// One small query interface over both databases: node-postgres for PostgreSQL, PGlite embedded.
// Hot-path ledger statements use it directly (single round trip, no ORM); the rest use Prisma.
import fs from 'node:fs';
import pg from 'pg';
import type { PgliteConnection } from './pglite-thread/remote-pglite.js';

export type SqlValue = string | number | boolean | null | bigint | Date | Record<string, unknown>;

export interface SqlClient {
  /**
   * True when the database runs one statement at a time (PGlite): code that batches writes then keeps
   * one batch in flight and gathers the next meanwhile, since a second batch would only queue.
   */
  readonly serial?: boolean;
  /** Runs one parameterised statement. `name` prepares it once per connection (on PGlite, once per process). */
  query<Row = Record<string, unknown>>(text: string, values?: SqlValue[], name?: string): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  execScript(script: string): Promise<void>;
  /** Runs `work` on one connection inside BEGIN/COMMIT, rolling back if it throws. */
  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
  /** Runs `work` while holding a session-level advisory lock on one connection. */
  withAdvisoryLock<T>(lockId: number, work: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * The same database for work no request waits for (settlement, refreshes, returns, maintenance). On a
   * serial database its statements yield to the others (see createPgliteClient); elsewhere it is absent
   * and such work uses the client itself (backgroundOf).
   */
  readonly background?: SqlClient;
}

/** The client to use for work no request waits for. */
export const backgroundOf = (sql: SqlClient): SqlClient => sql.background ?? sql;

/** On a serial database, the longest a background statement waits for the others before it goes next. */
export const BACKGROUND_MAX_WAIT_MS = 20;

function normalise(values: SqlValue[] | undefined): unknown[] | undefined {
  // BigInt parameters travel as decimal text; every statement casts them (::bigint).
  return values?.map((value) => (typeof value === 'bigint' ? value.toString() : value));
}

function wrapPgClient(client: pg.PoolClient): SqlClient {
  const wrapped: SqlClient = {
    async query(text, values, name) {
      const result = await client.query({ text, values: normalise(values), name });
      return result.rows;
    },
    async execScript(script) {
      await client.query(script);
    },
    transaction: (work) => runTransaction(wrapped, work),
    withAdvisoryLock: (lockId, work) => runLocked(wrapped, lockId, work),
    close: async () => client.release(),
  };
  return wrapped;
}

async function runTransaction<T>(client: SqlClient, work: (client: SqlClient) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

async function runLocked<T>(client: SqlClient, lockId: number, work: (client: SqlClient) => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1)', [lockId]);
  try {
    return await work(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [lockId]);
  }
}

export function createPostgresClient(pool: pg.Pool): SqlClient {
  return {
    async query(text, values, name) {
      const result = await pool.query({ text, values: normalise(values), name });
      return result.rows;
    },
    async execScript(script) {
      await pool.query(script);
    },
    async transaction(work) {
      const connection = await pool.connect();
      try {
        return await runTransaction(wrapPgClient(connection), work);
      } finally {
        connection.release();
      }
    },
    async withAdvisoryLock(lockId, work) {
      const connection = await pool.connect();
      try {
        return await runLocked(wrapPgClient(connection), lockId, work);
      } finally {
        connection.release();
      }
    },
    close: () => pool.end(),
  };
}

/** PostgreSQL's code for EXECUTE of a statement name the session does not have (invalid_sql_statement_name). */
const NO_SUCH_PREPARED_STATEMENT = '26000';
/** A name PostgreSQL keeps as written: lower case, and within its 63-byte identifiers (longer ones are cut, and could meet). */
const STATEMENT_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A parameter as an SQL literal for EXECUTE: quoted text that PostgreSQL converts to the parameter's type
 * as it converts a bound parameter's text, spelled as PGlite spells bound parameters (Date as ISO-8601,
 * objects as JSON, booleans and numbers as text). The quote doubling is the whole escape because
 * standard_conforming_strings is on (PostgreSQL's default since 9.1; nothing here turns it off). Undefined
 * for what this does not spell (arrays, binary, text with a NUL, which would end the statement's text):
 * such a call runs unprepared.
 */
function literalOf(value: unknown): string | undefined {
  if (value === null || value === undefined) return 'NULL';
  let text: string;
  if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') text = String(value);
  else if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return undefined;
    text = value.toISOString();
  } else if (typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value)) text = JSON.stringify(value);
  else return undefined;
  if (text.includes('\0')) return undefined;
  return `'${text.replaceAll("'", "''")}'`;
}

/** One session's named statements: whether each is prepared yet, and with which text. */
interface PreparedStatement {
  text: string;
  /** Settles once PREPARE ran; rejects (and the entry is dropped) if it failed. */
  prepared: Promise<void>;
  ready: boolean;
}

type PgliteRunner = Pick<PgliteConnection, 'query'>;

/**
 * Named statements on PGlite, prepared once per process and run with EXECUTE, as node-postgres prepares a
 * named statement once per PostgreSQL connection. PGlite's query() sends every statement unnamed, so
 * PostgreSQL parsed and planned it anew each time: the statement that writes requests paid from allowances
 * took 2.5–3.2 ms of WebAssembly for one request, 1.0–1.2 ms prepared (session 25, bench/HISTORY.md; under
 * a saturating load its batches are large enough that it did not show). PGlite has no named statements in
 * its API, so the arguments travel as literals (literalOf); PREPARE infers the parameters' types from the
 * text as the unnamed Parse did.
 * Prepared statements outlive transactions (PREPARE is not undone by ROLLBACK), and a change of schema
 * re-plans them (PostgreSQL's plan cache).
 */
function preparedStatements(): (runner: PgliteRunner, text: string, values: unknown[] | undefined, name: string | undefined, inTransaction: boolean) => Promise<unknown[]> {
  const statements = new Map<string, PreparedStatement>();
  const unprepared = async (runner: PgliteRunner, text: string, values: unknown[] | undefined) => (await runner.query(text, values)).rows;

  return async function run(runner, text, values, name, inTransaction) {
    if (name === undefined || !STATEMENT_NAME.test(name)) return unprepared(runner, text, values);
    const literals: string[] = [];
    for (const value of values ?? []) {
      const literal = literalOf(value);
      if (literal === undefined) return unprepared(runner, text, values);
      literals.push(literal);
    }
    let statement = statements.get(name);
    if (statement && statement.text !== text) throw new Error(`the statement name ${name} is given to two different statements`);
    if (!statement) {
      const entry: PreparedStatement = { text, ready: false, prepared: Promise.resolve() };
      entry.prepared = runner.query(`PREPARE ${name} AS ${text}`).then(() => {
        entry.ready = true;
      }, (error: unknown) => {
        if (statements.get(name) === entry) statements.delete(name);
        throw error;
      });
      statements.set(name, entry);
      statement = entry;
    } else if (!statement.ready && inTransaction) {
      // Being prepared outside this transaction, behind it in PGlite's queue: waiting for that here would
      // never end, so this call runs the statement unprepared.
      return unprepared(runner, text, values);
    }
    await statement.prepared;
    const execute = literals.length > 0 ? `EXECUTE ${name}(${literals.join(', ')})` : `EXECUTE ${name}`;
    try {
      return (await runner.query(execute)).rows;
    } catch (error) {
      // Only if something deallocated it (nothing here does): prepared again on the next call, and
      // outside a transaction this call runs unprepared now (EXECUTE of a missing statement did nothing).
      if ((error as { code?: unknown }).code !== NO_SUCH_PREPARED_STATEMENT) throw error;
      if (statements.get(name) === statement) statements.delete(name);
      if (inTransaction) throw error;
      return unprepared(runner, text, values);
    }
  };
}

export function createPgliteClient(database: PgliteConnection): SqlClient {
  // PGlite is a single connection that runs one statement at a time, so a transaction must own it.
  // `database` is PGlite itself or its worker-thread proxy (RemotePglite): both behave the same.
  //
  // Statements sent to PGlite run in the order sent, so a request's reservation sent just after a
  // settlement batch waits for the whole batch. Work no request waits for goes through `background`:
  // its statements (and transactions) are sent one at a time, and only when no other statement of this
  // client is in flight, or once one has waited BACKGROUND_MAX_WAIT_MS (so it is never starved).
  const runStatement = preparedStatements();
  let foreground = 0;
  const waiting: Array<{ queuedAt: number; start(): void }> = [];
  let backgroundBusy = false;
  let timer: NodeJS.Timeout | undefined;

  function pump(): void {
    if (backgroundBusy || waiting.length === 0) return;
    const waitedMs = performance.now() - waiting[0]!.queuedAt;
    if (foreground > 0 && waitedMs < BACKGROUND_MAX_WAIT_MS) {
      if (!timer) {
        timer = setTimeout(() => {
          timer = undefined;
          pump();
        }, BACKGROUND_MAX_WAIT_MS - waitedMs + 1);
        timer.unref();
      }
      return;
    }
    backgroundBusy = true;
    waiting.shift()!.start();
  }

  function inForeground<T>(work: () => Promise<T>): Promise<T> {
    foreground += 1;
    const done = () => {
      foreground -= 1;
      if (foreground === 0) pump();
    };
    const running = work();
    running.then(done, done);
    return running;
  }

  function inBackground<T>(work: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      waiting.push({
        queuedAt: performance.now(),
        start: () => {
          const finish = () => {
            backgroundBusy = false;
            pump();
          };
          work().then((value) => {
            finish();
            resolve(value);
          }, (error: unknown) => {
            finish();
            reject(error);
          });
        },
      });
      pump();
    });
  }

  const close = () => {
    if (timer) clearTimeout(timer);
    return database.close();
  };

  function runPgliteTransaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T> {
    return database.transaction(async (transaction) => {
      // Inside the transaction: its own statements only (no background view, which would wait outside it).
      const inner: SqlClient = {
        serial: true,
        async query(text, values, name) {
          return await runStatement(transaction, text, normalise(values), name, true) as never[];
        },
        async execScript(script) {
          await transaction.exec(script);
        },
        transaction: (nested) => nested(inner),
        withAdvisoryLock: (_lockId, nested) => nested(inner),
        close,
      };
      return work(inner);
    });
  }

  /** The client whose statements go through `run` (foreground or background). */
  function clientThrough(run: <T>(work: () => Promise<T>) => Promise<T>, background?: SqlClient): SqlClient {
    const through: SqlClient = {
      serial: true,
      query: (text, values, name) => run(async () => await runStatement(database, text, normalise(values), name, false) as never[]),
      execScript: (script) => run(async () => {
        await database.exec(script);
      }),
      transaction: (work) => run(() => runPgliteTransaction(work)),
      // One process owns a PGlite data dir, so there is nobody to lock against.
      withAdvisoryLock: (_lockId, work) => work(through),
      close,
      background,
    };
    return through;
  }

  return clientThrough(inForeground, clientThrough(inBackground));
}

/** PGlite does not create parent directories itself. */
export function ensureDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true });
}
