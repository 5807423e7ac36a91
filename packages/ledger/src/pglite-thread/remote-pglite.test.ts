// PGlite on a worker thread must be indistinguishable from PGlite in-thread: same values and types,
// same error fields, transactions that own the connection, and failures that reject instead of hang.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGlite, messages, types } from '@electric-sql/pglite';
import { RemotePglite, type PgliteConnection } from './remote-pglite.js';
import { createPgliteClient } from '../sql-client.js';
import { openDatabase } from '../database.js';

const SCHEMA = `
  CREATE TABLE typed (
    id int4 PRIMARY KEY, big int8, amount numeric(20, 6), ratio float8, flag bool, label text,
    at timestamptz, day date, doc json, docb jsonb, bytes bytea, tags text[], counts int8[], uid uuid,
    CONSTRAINT typed_big_positive CHECK (big >= 0)
  );
  INSERT INTO typed VALUES
    (1, 9007199254740993, 12345678901234.123456, 0.1, true, 'café', '2026-11-26 09:00:00.123+00', '2026-02-28',
     '{"a":[1,2,{"b":null}]}', '{"z":1,"a":"x"}', '\\x00ff10', '{a,"b c"}', '{1,-9007199254740993}',
     'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'),
    (2, null, null, null, null, null, null, null, null, null, null, null, null, null);
`;

// Parsers as Prisma's PGlite adapter passes them: raw text for some types, a conversion for others.
const prismaLikeParsers = {
  [types.INT8]: (text: string) => text,
  [types.NUMERIC]: (text: string) => text,
  [types.TIMESTAMPTZ]: (text: string) => text.replace(' ', 'T'),
  [types.JSON]: (text: string) => text,
  [types.JSONB]: (text: string) => text,
  [types.BYTEA]: (text: string) => `bytes:${text}`,
};

function describeValue(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return [typeof value, value];
  return [Object.getPrototypeOf(value)?.constructor?.name, value];
}

describe('PGlite on a worker thread', () => {
  let local: PGlite;
  let remote: RemotePglite;

  beforeAll(async () => {
    [local, remote] = await Promise.all([PGlite.create(), RemotePglite.start({ options: {} })]);
    await Promise.all([local.exec(SCHEMA), remote.exec(SCHEMA)]);
  });
  afterAll(async () => {
    await Promise.all([local?.close(), remote?.close()]);
  });

  it('returns the same values, with the same types, as PGlite in-thread', async () => {
    const text = 'SELECT * FROM typed ORDER BY id';
    for (const options of [undefined, { rowMode: 'array' as const }, { rowMode: 'array' as const, parsers: prismaLikeParsers }, { parsers: prismaLikeParsers }]) {
      const [expected, actual] = await Promise.all([local.query(text, [], options), remote.query(text, [], options)]);
      expect(actual.fields).toEqual(expected.fields);
      expect(actual.rows).toStrictEqual(expected.rows);
      expect(actual.affectedRows).toBe(expected.affectedRows);
      // toStrictEqual does not tell a Buffer from a Uint8Array or check bigint versus number everywhere.
      const flat = (rows: unknown[]) => rows.flatMap((row) => Object.values(row as object).map(describeValue));
      expect(flat(actual.rows)).toStrictEqual(flat(expected.rows));
    }
    const [expected] = (await local.query<Record<string, unknown>>(text)).rows;
    expect(typeof expected!.big).toBe('bigint');
    expect(expected!.at).toBeInstanceOf(Date);
    expect(expected!.bytes).toBeInstanceOf(Uint8Array);
  });

  it('passes parameters of every kind the ledger sends', async () => {
    const text = 'SELECT $1::int8 AS big, $2::numeric AS amount, $3::timestamptz AS at, $4::jsonb AS doc, $5::bytea AS bytes, $6::bool AS flag, $7::text AS nothing';
    const values = ['9007199254740993', '1.5', new Date('2026-11-26T09:00:00.123Z'), { a: [1, 'x'] }, new Uint8Array([0, 255]), false, null];
    const [expected, actual] = await Promise.all([local.query(text, values), remote.query(text, values)]);
    expect(actual.rows).toStrictEqual(expected.rows);
  });

  it('gives errors the fields of PGlite in-thread, as a PGlite DatabaseError', async () => {
    const failing = [
      ['INSERT INTO typed (id) VALUES (1)', []],
      ['INSERT INTO typed (id, big) VALUES ($1, $2)', [3, -1]],
      ['SELECT * FROM no_such_table', []],
      ['SELECT $1::int4', ['not a number']],
    ] as const;
    for (const [text, values] of failing) {
      const expected = await local.query(text, [...values]).catch((error: unknown) => error as messages.DatabaseError);
      const actual = await remote.query(text, [...values]).catch((error: unknown) => error as messages.DatabaseError);
      expect(actual).toBeInstanceOf(messages.DatabaseError);
      expect(actual).toBeInstanceOf(Error);
      const keys = ['message', 'name', 'code', 'severity', 'detail', 'hint', 'schema', 'table', 'column', 'constraint', 'routine', 'position', 'query', 'params'] as const;
      for (const key of keys) expect([key, (actual as never)[key]]).toStrictEqual([key, (expected as never)[key]]);
    }
    const checkViolation = await remote.query('INSERT INTO typed (id, big) VALUES (4, -1)').catch((error: unknown) => error as messages.DatabaseError);
    expect(checkViolation).toMatchObject({ code: '23514', constraint: 'typed_big_positive', table: 'typed', severity: 'ERROR' });
    expect((checkViolation as Error).message).toContain('typed_big_positive');
  });

  it('rolls back a transaction whose work throws, and one rolled back from inside', async () => {
    await expect(
      remote.transaction(async (transaction) => {
        await transaction.query('INSERT INTO typed (id) VALUES (10)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    await remote.transaction(async (transaction) => {
      await transaction.query('INSERT INTO typed (id) VALUES (11)');
      await transaction.rollback();
      expect(transaction.closed).toBe(true);
      await expect(transaction.query('SELECT 1')).rejects.toThrow('Transaction is closed');
    });
    // A failing statement aborts the transaction; its error carries the fields.
    const error = await remote
      .transaction(async (transaction) => {
        await transaction.query('INSERT INTO typed (id) VALUES (12)');
        await transaction.query('INSERT INTO typed (id, big) VALUES (13, -5)');
      })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: '23514', constraint: 'typed_big_positive' });
    const { rows } = await remote.query('SELECT id FROM typed WHERE id >= 10');
    expect(rows).toEqual([]);
  });

  it('makes other statements wait while a transaction owns the connection', async () => {
    const events: string[] = [];
    let outside: Promise<unknown> | undefined;
    await remote.transaction(async (transaction) => {
      await transaction.query('INSERT INTO typed (id) VALUES (20)');
      outside = remote.query<{ count: number }>('SELECT count(*)::int4 AS count FROM typed WHERE id = 20').then((result) => {
        events.push(`outside saw ${result.rows[0]!.count}`);
      });
      // Give the worker every chance to run the outside statement early.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await transaction.query('INSERT INTO typed (id) VALUES (21)');
      events.push('committing');
    });
    await outside;
    expect(events).toEqual(['committing', 'outside saw 1']);
    await remote.query('DELETE FROM typed WHERE id IN (20, 21)');
  });

  it('runs the SQL client (nested transactions included) the same over both', async () => {
    const run = async (connection: PgliteConnection) => {
      const client = createPgliteClient(connection);
      const inserted = await client.transaction(async (outer) =>
        outer.transaction(async (inner) => inner.query<{ id: number; big: bigint }>('INSERT INTO typed (id, big) VALUES ($1, $2::bigint) RETURNING id, big', [30, 5n])),
      );
      await client.query('DELETE FROM typed WHERE id = 30');
      return inserted;
    };
    const [expected, actual] = await Promise.all([run(local), run(remote)]);
    expect(actual).toStrictEqual(expected);
    expect(actual).toStrictEqual([{ id: 30, big: 5 }]);
  });
});

describe('the PGlite worker thread failing', () => {
  it('rejects queries in flight and later ones when the thread dies, instead of hanging', async () => {
    const remote = await RemotePglite.start({ options: {} });
    try {
      const slow = remote.query('SELECT pg_sleep(0.5)');
      // The test's stand-in for a crash (an abort in the WebAssembly, an out-of-memory): the thread ends.
      await remote.terminateForTest();
      await expect(slow).rejects.toThrow(/PGlite worker thread exited/);
      await expect(remote.query('SELECT 1')).rejects.toThrow(/PGlite worker thread exited/);
      await expect(remote.transaction(async () => undefined)).rejects.toThrow(/PGlite worker thread exited/);
    } finally {
      await remote.close();
    }
  });

  it('rejects with PGlite\'s own error when the database cannot open', async () => {
    await expect(RemotePglite.start({ dataDir: '/proc/no-such-place/pglite', options: {} })).rejects.toThrow();
  });

  it('refuses statements after close, and closes twice without complaint', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' }, { migrate: false });
    expect(database.pglite).toBeUndefined();
    await database.sql.query('SELECT 1');
    await database.close();
    await expect(database.sql.query('SELECT 1')).rejects.toThrow(/closed/);
    await database.close();
  });

  // A plain Node process cannot load the TypeScript source: this one runs the build (npm run build).
  const built = new URL('../../dist/pglite-thread/remote-pglite.js', import.meta.url);
  it.runIf(fs.existsSync(built))('lets the process exit without close(): an idle worker does not hold it open', async () => {
    const script = `
      const { RemotePglite } = await import(${JSON.stringify(built.href)});
      const remote = await RemotePglite.start({ options: {} });
      await remote.query('SELECT 1');
      console.log('queried');
    `;
    const started = Date.now();
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(child.stdout, child.stderr).toContain('queried');
    expect(child.status).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  // `node --max-old-space-size=512 apps/embedded/dist/main.js` did not start: Node refused the worker an
  // explicit execArgv holding a V8 option.
  it.runIf(fs.existsSync(built)).each([
    ['a script file', ['--max-old-space-size=512', '--stack-size=2000']],
    ['`--input-type=module -e`', ['--input-type=module', '--max-old-space-size=512']],
  ])('starts its worker in a process started with V8 options (%s)', async (_label, flags) => {
    const script = `
      import v8 from 'node:v8';
      const { RemotePglite } = await import(${JSON.stringify(built.href)});
      const remote = await RemotePglite.start({ options: {} });
      const [row] = (await remote.query('SELECT 1 AS one')).rows;
      console.log(JSON.stringify({ one: row.one, heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20) }));
    `;
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-worker-flags-'));
    try {
      const file = path.join(directory, 'start.mjs');
      fs.writeFileSync(file, script);
      const args = flags.includes('--input-type=module') ? [...flags, '-e', script] : [...flags, file];
      const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 30_000 });
      expect(child.stderr).not.toMatch(/ERR_WORKER_INVALID_EXEC_ARGV/);
      expect(child.status, child.stderr).toBe(0);
      const printed = JSON.parse(child.stdout.trim().split('\n').at(-1)!) as { one: number; heapLimitMb: number };
      expect(printed.one).toBe(1);
      // The option took effect in the process (it is not dropped to let the worker start; without it the
      // limit is several GB here).
      expect(printed.heapLimitMb).toBeLessThan(1024);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('keeps PGlite in-thread on request, exposing the instance', async () => {
    const database = await openDatabase({ kind: 'pglite-memory', pgliteThread: 'main' }, { migrate: false });
    try {
      expect(database.pglite).toBeInstanceOf(PGlite);
      expect(await database.sql.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    } finally {
      await database.close();
    }
  });
});
