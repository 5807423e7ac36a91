// PostgreSQL with autovacuum off: the worker applies autovacuum's rules itself (startPostgresMaintenance).
// The case that made it necessary: node-postgres prepares each hot statement once per connection, and one
// prepared while `reservations` was nearly empty kept its generic plan (a sequential scan) as the table
// grew, because nothing analyzed the table to invalidate it.
import crypto from 'node:crypto';
import pg from 'pg';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnPostgres } from './__fixtures__/each-database.js';
import { createUser } from './operations/manage-accounts.js';
import { startPostgresMaintenance } from './pglite-vacuum.js';
import type { SqlClient } from './sql-client.js';

const SETTING = `SELECT current_setting('autovacuum') AS autovacuum`;

/** The database as seen through a server whose autovacuum setting reads `value` (the rest is real). */
function withAutovacuum(sql: SqlClient, value: 'on' | 'off', sent: string[] = []): SqlClient {
  const answer = async <Row>(text: string, values?: unknown[], name?: string): Promise<Row[]> => {
    sent.push(text);
    return text === SETTING ? [{ autovacuum: value }] as Row[] : sql.query<Row>(text, values as never, name);
  };
  return { ...sql, background: undefined, query: answer };
}

const logger = { debug: () => undefined, warn: () => undefined, info: () => undefined };

/** The worker's maintenance (paced) and the same rounds unpaced, both on a server reading autovacuum = off; run by hand. */
async function startBoth(sql: SqlClient) {
  const maintenance = (await startPostgresMaintenance(withAutovacuum(sql, 'off'), { logger, intervalMs: 3_600_000 }))!;
  const unpaced = (await startPostgresMaintenance(withAutovacuum(sql, 'off'), { logger, intervalMs: 3_600_000, settledAnalyzeIntervalMs: 0 }))!;
  return { maintenance, unpaced };
}

/** What a round did to one table. */
const on = (table: string, round: Array<{ table: string; action: string }>) => round.filter((done) => done.table === table);

describeOnPostgres('PostgreSQL maintenance when autovacuum is off', (opened) => {
  let database: Database;
  let url: string;
  beforeAll(() => {
    ({ database, url } = opened());
  });

  it('does nothing when the server runs autovacuum', async () => {
    const sent: string[] = [];
    expect(await startPostgresMaintenance(withAutovacuum(database.sql, 'on', sent), { logger })).toBeUndefined();
    expect(sent).toEqual([SETTING]);
  });

  it('maintains a small table whose rows are only updated at most once a minute (each round invalidates cached plans)', async () => {
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    // Like `wallets`: a few dozen rows, each updated by every settlement.
    await probe.query('CREATE TABLE hot_rows (id int PRIMARY KEY, n int NOT NULL)');
    await probe.query('INSERT INTO hot_rows SELECT i, 0 FROM generate_series(1, 30) AS i');
    const churn = async () => {
      for (let round = 0; round < 10; round++) await probe.query('UPDATE hot_rows SET n = n + 1');
      await probe.query('SELECT pg_stat_force_next_flush()');
    };
    const { maintenance, unpaced } = await startBoth(database.sql);
    try {
      await churn();
      expect(on('hot_rows', await maintenance.runOnce())).toEqual([{ table: 'hot_rows', action: 'vacuum_analyze' }]);
      // 300 more updates: past both thresholds again, but the same 30 rows, and the last round was just now.
      await churn();
      expect(on('hot_rows', await maintenance.runOnce())).toEqual([]);
      // Unpaced (PGlite's rounds), the same churn is maintained at once.
      expect(on('hot_rows', await unpaced.runOnce())).toEqual([{ table: 'hot_rows', action: 'vacuum_analyze' }]);
      // A small table whose row count moved is still maintained at once, paced or not.
      await probe.query('INSERT INTO hot_rows SELECT i, 0 FROM generate_series(31, 200) AS i');
      await probe.query('SELECT pg_stat_force_next_flush()');
      expect(on('hot_rows', await maintenance.runOnce())).toEqual([{ table: 'hot_rows', action: expect.stringMatching(/analyze/) }]);
    } finally {
      await unpaced.stop();
      await maintenance.stop();
      await probe.query('DROP TABLE hot_rows');
      await probe.end();
    }
  });

  it('analyzes a table that grew, so a statement prepared while it was empty is planned again with its index', async () => {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const probe = new pg.Client({ connectionString: url });
    await probe.connect();
    // Prepared once per connection, as the ledger's statements are (named), and run while the table is small.
    const lookup = {
      name: 'maintenance_probe',
      text: `SELECT count(*)::int AS found FROM reservations WHERE id = ANY($1::uuid[])`,
    };
    const ids = `{${Array.from({ length: 20 }, () => crypto.randomUUID()).join(',')}}`;
    /** Adds settled reservations; the inserting connection reports its counts at once (else within a second or, idle, ten). */
    const grow = async (rows: number) => {
      await probe.query(
        `INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters, state, settled_at)
         SELECT gen_random_uuid(), $1::uuid, 100, 'openai', 'tts-1', 7, 'committed', now() FROM generate_series(1, $2::int)`,
        [user.personalAccountId, rows],
      );
      await probe.query('SELECT pg_stat_force_next_flush()');
      await probe.query('SELECT 1');
    };
    const plan = async () => (await probe.query(`EXPLAIN EXECUTE maintenance_probe('${ids}')`)).rows.map((row) => row['QUERY PLAN'] as string).join('\n');
    const { maintenance, unpaced } = await startBoth(database.sql);
    try {
      expect(maintenance).toBeDefined();
      await maintenance.runOnce();
      for (let run = 0; run < 8; run++) await probe.query({ ...lookup, values: [ids] });
      expect(await plan()).toMatch(/Seq Scan on reservations/);

      await grow(20_000);
      // Nothing has analyzed the table: the plan prepared while it was empty still scans all of it.
      expect(await plan()).toMatch(/Seq Scan on reservations/);

      const done = await maintenance.runOnce();
      expect(done).toContainEqual({ table: 'reservations', action: expect.stringMatching(/analyze/) });
      expect(await plan()).not.toMatch(/Seq Scan on reservations/);
      expect(await plan()).toMatch(/reservations_pkey/);
      // A round with nothing new to do does nothing.
      expect(on('reservations', await maintenance.runOnce())).toEqual([]);
      // A table past 10,000 rows is analyzed at most once a minute, however fast it grows.
      await grow(5_000);
      const [counted] = (await probe.query(`SELECT n_mod_since_analyze::int AS changed FROM pg_stat_user_tables WHERE relname = 'reservations'`)).rows;
      expect(counted.changed).toBe(5000);
      expect(on('reservations', await maintenance.runOnce())).toEqual([]);
      // Without that pacing, the same growth is analyzed at once.
      expect(await unpaced.runOnce()).toContainEqual({ table: 'reservations', action: expect.stringMatching(/analyze/) });
    } finally {
      await unpaced.stop();
      await maintenance.stop();
      await probe.end();
    }
  });
});
