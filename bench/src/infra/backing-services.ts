// PostgreSQL and Redis for the scaled-out mode: found (or not) at the usual local addresses, a fresh
// database and Redis key prefix per run, removed afterwards.
import crypto from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { createTestDatabase, flushRedisPrefix, type TestDatabase } from '@voice-router/test-support';

export interface BackingServices {
  postgresUrl: string;
  redisUrl: string;
}

export const defaultPostgresUrl = () => process.env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
export const defaultRedisUrl = () => process.env.REDIS_URL || 'redis://127.0.0.1:6379';

async function postgresReachable(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL at ${new URL(url).host} is not reachable (${(error as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function redisReachable(url: string): Promise<string | undefined> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port || 6379), hostname);
    const fail = (reason: string) => {
      socket.destroy();
      resolve(`Redis at ${hostname}:${port || 6379} is not reachable (${reason})`);
    };
    socket.setTimeout(2000, () => fail('timeout'));
    socket.once('error', (error) => fail(error.message));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG') ? undefined : `Redis answered ${data.toString().trim()}`);
    });
  });
}

/** The services, or a note saying why the scaled-out mode is skipped. */
export async function findBackingServices(): Promise<{ services?: BackingServices; note?: string }> {
  const postgresUrl = defaultPostgresUrl();
  const redisUrl = defaultRedisUrl();
  const problems = (await Promise.all([postgresReachable(postgresUrl), redisReachable(redisUrl)])).filter(Boolean);
  if (problems.length) return { note: `scaled-out mode skipped: ${problems.join('; ')}` };
  return { services: { postgresUrl, redisUrl }, note: await autovacuumNote(postgresUrl) };
}

/** The server's autovacuum setting changes what PostgreSQL costs per request (README, "Run modes"): said when off. */
async function autovacuumNote(url: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ autovacuum: string }>(`SELECT current_setting('autovacuum') AS autovacuum`);
    return rows[0]?.autovacuum === 'off'
      ? 'PostgreSQL runs with autovacuum off on this machine: the router\'s workers apply autovacuum\'s rules themselves (README, "Run modes"), and their VACUUM and ANALYZE count in PostgreSQL\'s CPU'
      : undefined;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface RunScope {
  database: TestDatabase;
  redisPrefix: string;
  cleanup(): Promise<void>;
}

/** A database and a Redis prefix that belong to this run only. */
export async function createRunScope(services: BackingServices): Promise<RunScope> {
  const database = await createTestDatabase(services.postgresUrl);
  const redisPrefix = `vr-bench-${crypto.randomBytes(5).toString('hex')}`;
  return {
    database,
    redisPrefix,
    async cleanup() {
      await flushRedisPrefix(services.redisUrl, redisPrefix).catch(() => undefined);
      await database.drop().catch(() => undefined);
    },
  };
}
