// Named statements on PGlite run prepared (PREPARE once, then EXECUTE with the arguments as literals):
// the results must be exactly those of the unprepared statement, for every kind of value the ledger
// passes, inside and outside transactions, on PGlite's own thread and on the calling one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

const ROUND_TRIP = `SELECT $1::text AS text, $2::jsonb AS json, $3::bigint::text AS big, $4::boolean AS flag,
  $5::timestamptz AS at, $6::int AS count, $7::text AS nothing, $8::uuid::text AS id`;

for (const pgliteThread of ['worker', 'main'] as const) {
  describe(`prepared statements on PGlite (${pgliteThread} thread)`, () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ kind: 'pglite-memory', pgliteThread }, { migrate: false });
    });
    afterAll(() => database.close());

    const prepared = async (name: string) =>
      database.sql.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE name = $1', [name]);

    it('prepares a named statement once and returns what the unprepared statement returns, quotes and all', async () => {
      const values = [
        "it's a 'quoted' \\ backslash; DROP TABLE x; --", { say: "it's", nested: ['a', "b'c"], slash: '\\n' }, 9_007_199_254_740_993n, true,
        new Date('2026-11-29T04:05:06.789Z'), 42, null, 'a3bb189e-8bf9-3888-9912-ace4e6543002',
      ];
      const unprepared = await database.sql.query(ROUND_TRIP, values);
      expect(await prepared('round_trip')).toEqual([]);
      const first = await database.sql.query(ROUND_TRIP, values, 'round_trip');
      const second = await database.sql.query(ROUND_TRIP, values, 'round_trip');
      expect(first).toEqual(unprepared);
      expect(second).toEqual(unprepared);
      expect(first[0]).toMatchObject({ text: values[0], json: values[1], big: '9007199254740993', flag: true, count: 42, nothing: null });
      expect((first[0] as { at: Date }).at.toISOString()).toBe('2026-11-29T04:05:06.789Z');
      expect(await prepared('round_trip')).toEqual([{ statement: `PREPARE round_trip AS ${ROUND_TRIP}` }]);
    });

    it('runs unprepared what it cannot spell as a literal or name, with the same outcome as before', async () => {
      await expect(database.sql.query('SELECT $1::text AS text', ['a\0b'], 'nul_text')).rejects.toThrow();
      const array = [1, 2] as never;
      expect(await database.sql.query('SELECT $1::text AS text', [array], 'array_value')).toEqual(await database.sql.query('SELECT $1::text AS text', [array]));
      // Longer than PostgreSQL's 63-byte identifiers, which it would cut (two such names could meet).
      const long = `long_${'x'.repeat(59)}`;
      expect(await database.sql.query('SELECT $1::int AS one', [1], long)).toEqual([{ one: 1 }]);
      expect(await prepared('nul_text')).toEqual([]);
      expect(await prepared('array_value')).toEqual([]);
      expect(await prepared(long.slice(0, 63))).toEqual([]);
    });

    it('refuses one name for two statements', async () => {
      await database.sql.query('SELECT 1 AS one', [], 'named_once');
      await expect(database.sql.query('SELECT 2 AS two', [], 'named_once')).rejects.toThrow(/two different statements/);
    });

    it('keeps a statement prepared in a transaction that rolled back, and prepares again one deallocated behind its back', async () => {
      await expect(database.sql.transaction(async (transaction) => {
        expect(await transaction.query('SELECT $1::int + 1 AS next', [1], 'in_transaction')).toEqual([{ next: 2 }]);
        throw new Error('roll back');
      })).rejects.toThrow('roll back');
      expect(await prepared('in_transaction')).toHaveLength(1);
      expect(await database.sql.query('SELECT $1::int + 1 AS next', [2], 'in_transaction')).toEqual([{ next: 3 }]);
      await database.sql.query('DEALLOCATE in_transaction');
      expect(await database.sql.query('SELECT $1::int + 1 AS next', [3], 'in_transaction')).toEqual([{ next: 4 }]);
      expect(await database.sql.query('SELECT $1::int + 1 AS next', [4], 'in_transaction')).toEqual([{ next: 5 }]);
      expect(await prepared('in_transaction')).toHaveLength(1);
    });

    it('does not wait inside a transaction for a preparation queued behind that transaction', async () => {
      const text = 'SELECT $1::int * 2 AS twice';
      let outside: Promise<unknown> | undefined;
      const inside = await database.sql.transaction(async (transaction) => {
        // Sent while the transaction holds PGlite: its PREPARE waits for the transaction to end.
        outside = database.sql.query(text, [5], 'queued_behind');
        await new Promise((resolve) => setTimeout(resolve, 20));
        return transaction.query(text, [4], 'queued_behind');
      });
      expect(inside).toEqual([{ twice: 8 }]);
      expect(await outside).toEqual([{ twice: 10 }]);
      expect(await database.sql.query(text, [6], 'queued_behind')).toEqual([{ twice: 12 }]);
    });
  });
}
