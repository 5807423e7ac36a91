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
  /** Runs one parameterised statement. `name` prepares it once per connection on PostgreSQL. */
  query<Row = Record<string, unknown>>(text: string, values?: SqlValue[], name?: string): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  execScript(script: string): Promise<void>;
  /** Runs `work` on one connection inside BEGIN/COMMIT, rolling back if it throws. */
  transaction<T>(work: (client: SqlClient) => Promise<T>): Promise<T>;
  /** Runs `work` while holding a session-level advisory lock on one connection. */
  withAdvisoryLock<T>(lockId: number, work: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

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

export function createPgliteClient(database: PgliteConnection): SqlClient {
  // PGlite is a single connection that runs one statement at a time, so a transaction must own it.
  // `database` is PGlite itself or its worker-thread proxy (RemotePglite): both behave the same.
  const client: SqlClient = {
    serial: true,
    async query(text, values) {
      const result = await database.query(text, normalise(values) as unknown[]);
      return result.rows as never[];
    },
    async execScript(script) {
      await database.exec(script);
    },
    transaction(work) {
      return database.transaction(async (transaction) => {
        const inner: SqlClient = {
          ...client,
          async query(text, values) {
            const result = await transaction.query(text, normalise(values) as unknown[]);
            return result.rows as never[];
          },
          async execScript(script) {
            await transaction.exec(script);
          },
          transaction: (nested) => nested(inner),
        };
        return work(inner);
      });
    },
    // One process owns a PGlite data dir, so there is nobody to lock against.
    withAdvisoryLock: (_lockId, work) => work(client),
    close: () => database.close(),
  };
  return client;
}

/** PGlite does not create parent directories itself. */
export function ensureDirectory(directory: string): void {
  fs.mkdirSync(directory, { recursive: true });
}
