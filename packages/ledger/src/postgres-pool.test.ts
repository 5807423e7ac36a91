// The data plane's PostgreSQL pool keeps its connections: a burst after a quiet spell finds them open
// instead of waiting for new backends (pg closes a connection after 10 s idle by default).
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnPostgres } from './__fixtures__/each-database.js';

describeOnPostgres('the PostgreSQL pool', (opened) => {
  let database: Database;
  beforeAll(() => {
    database = opened().database;
  });

  const backends = async () => {
    const [row] = await database.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`);
    return Number(row!.count);
  };

  it('keeps the connections it opened through a quiet spell longer than pg’s idle timeout', async () => {
    await Promise.all(Array.from({ length: 4 }, () => database.sql.query('SELECT pg_sleep(0.1)')));
    const opened = await backends();
    // Four raw connections (Prisma's own pool opens none for raw statements).
    expect(opened).toBe(4);
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    expect(await backends()).toBe(opened);
  }, 20_000);
}, { poolSize: 4 });
