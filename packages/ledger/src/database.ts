// Opens the ledger database in either run mode: PostgreSQL when a URL is given, else PGlite on disk.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { PGlite } from '@electric-sql/pglite';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from './generated/prisma/client.js';
import { applyMigrations } from './migrate.js';
import { lockDataDir } from './data-dir-lock.js';
import { RemotePglite, type PgliteConnection } from './pglite-thread/remote-pglite.js';
import { createPgliteClient, createPostgresClient, ensureDirectory, type SqlClient } from './sql-client.js';

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number; synchronousCommit?: boolean }
  | { kind: 'pglite'; dataDir: string; pgliteThread?: PgliteThread }
  | { kind: 'pglite-memory'; pgliteThread?: PgliteThread };

/**
 * Where PGlite runs. 'worker' (the default): on its own thread, so SQL never blocks the event loop
 * that streams audio. 'main': on the calling thread, as before; only this exposes the PGlite instance
 * (`Database.pglite`), e.g. for @electric-sql/pglite-socket, and it serves for comparisons.
 */
export type PgliteThread = 'worker' | 'main';

export interface Database {
  kind: DatabaseOptions['kind'];
  /** Raw statements: the ledger's hot path. */
  sql: SqlClient;
  /** Typed access for everything that is not on the hot path. */
  prisma: PrismaClient;
  /**
   * The PGlite instance in the embedded mode with `pgliteThread: 'main'` (to expose it over a socket),
   * else undefined: a PGlite on a worker thread cannot be handed out.
   */
  pglite?: PGlite;
  close(): Promise<void>;
}

export async function openDatabase(options: DatabaseOptions, { migrate = true } = {}): Promise<Database> {
  const database = options.kind === 'postgres' ? openPostgres(options) : await openPglite(options);
  if (migrate) {
    try {
      await applyMigrations(database.sql);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

function openPostgres({ url, poolSize = 10, synchronousCommit = false }: { url: string; poolSize?: number; synchronousCommit?: boolean }): Database {
  // Raw statements commit asynchronously by default: a reservation holds its wallet's row lock until
  // COMMIT, and waiting for the WAL flush there caps one wallet at ~1,000 operations/s. Each statement
  // stays atomic, so a PostgreSQL crash can only lose the last moments of reserves, commits and voids
  // whole (holds released, charges forgone; the reaper settles the rest). Money coming in (grantCredit)
  // forces a synchronous commit.
  // A fixed-size pool: connections are opened as needed up to poolSize and then kept (min = max; idle
  // ones are never closed). pg's default closes a connection after 10 s idle, so a quiet replica met
  // its next burst with no connections, and every request of the burst waited for a new backend
  // (TCP, startup, authentication) before its first statement.
  const pool = new pg.Pool({
    connectionString: url, max: poolSize, min: poolSize, keepAlive: true, options: synchronousCommit ? undefined : '-c synchronous_commit=off',
  });
  // An idle client's error (e.g. the server restarted) must not crash the process; the pool replaces it.
  pool.on('error', () => undefined);
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: Math.max(2, Math.ceil(poolSize / 2)) }) });
  const sql = createPostgresClient(pool);
  return {
    kind: 'postgres',
    sql,
    prisma,
    async close() {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

/**
 * PGlite's default shared_buffers (128 MB) lives in its WebAssembly memory, all of it resident: it was
 * about half of the embedded process's memory at rest. The data dir's files stay in the operating
 * system's page cache either way, so a smaller buffer pool costs a copy, not a disk read.
 */
const PGLITE_SETTINGS = ['shared_buffers = 16MB'];

const initdbScript = new URL('./pglite-thread/pglite-initdb.js', import.meta.url);

/**
 * Creates a data dir that does not exist yet in a short-lived child process (pglite-initdb.js): the memory
 * initdb used then leaves with that process (measured: the embedded service at rest after a first start,
 * 375 MB resident with initdb in-process, 336 MB with it in the child; 271 MB after a restart, the rest being
 * the migrations' memory in PGlite's thread). Returns false if that could not
 * be done; PGlite then creates the dir itself as it opens it, and reports any real error there.
 */
export async function createPgliteDataDir(dataDir: string): Promise<boolean> {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) return true;
  return new Promise((resolve) => {
    execFile(process.execPath, [fileURLToPath(initdbScript), dataDir, JSON.stringify(PGLITE_SETTINGS)], { timeout: 120_000 }, (error) => {
      resolve(!error && fs.existsSync(path.join(dataDir, 'PG_VERSION')));
    });
  });
}

async function openPglite(options: Extract<DatabaseOptions, { kind: 'pglite' | 'pglite-memory' }>): Promise<Database> {
  const thread = options.pgliteThread ?? 'worker';
  let dataDir: string | undefined;
  let release = () => undefined as void;
  if (options.kind === 'pglite') {
    dataDir = path.resolve(options.dataDir);
    ensureDirectory(path.dirname(dataDir));
    // The lock stays with this process's main thread whichever thread runs PGlite.
    const lock = await lockDataDir(dataDir);
    release = lock.release;
    await createPgliteDataDir(dataDir);
  }
  let connection: PgliteConnection;
  let pglite: PGlite | undefined;
  try {
    if (thread === 'main') {
      pglite = await PGlite.create({ dataDir, postgresqlconf: PGLITE_SETTINGS });
      connection = pglite;
    } else {
      connection = await RemotePglite.start({ dataDir, options: { postgresqlconf: PGLITE_SETTINGS } });
    }
  } catch (error) {
    release();
    throw error;
  }
  // Prisma's adapter calls only query, exec and transaction (with query, exec, rollback inside),
  // which the worker proxy implements with PGlite's own results and errors.
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(connection as PGlite) });
  const sql = createPgliteClient(connection);
  return {
    kind: options.kind,
    sql,
    prisma,
    pglite,
    async close() {
      try {
        await prisma.$disconnect();
        await sql.close();
      } finally {
        release();
      }
    },
  };
}
