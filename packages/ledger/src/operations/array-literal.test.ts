import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../database.js';
import { arrayColumns, arrayLiteral } from './array-literal.js';

describe('arrayLiteral', () => {
  it('quotes every element and spells null as NULL', () => {
    expect(arrayLiteral(['a', null, 'b c'])).toBe('{"a",NULL,"b c"}');
    expect(arrayLiteral([])).toBe('{}');
  });

  it('escapes backslashes and double quotes', () => {
    expect(arrayLiteral(['say "hi"', 'C:\\path'])).toBe('{"say \\"hi\\"","C:\\\\path"}');
  });

  it('turns rows into one literal per column, in the columns\' order and the rows\' order', () => {
    const rows = [{ id: 'a', note: null }, { id: 'b', note: 'x,y' }];
    expect(arrayColumns(rows, [(row) => row.note, (row) => row.id])).toEqual(['{NULL,"x,y"}', '{"a","b"}']);
    expect(arrayColumns([] as typeof rows, [(row) => row.id])).toEqual(['{}']);
  });

  describe('read back by PostgreSQL (PGlite)', () => {
    let database: Database;
    beforeAll(async () => {
      database = await openDatabase({ kind: 'pglite-memory' });
    }, 60_000);
    afterAll(async () => {
      await database.close();
    });

    it('gives back exactly the elements it was built from, whatever they hold', async () => {
      const values = ['plain', '', 'NULL', 'null', ' spaced ', 'a,b', '{braces}', 'say "hi"', 'back\\slash', "it's", 'trailing\\', '"', 'line\nbreak', 'ünïcødé 🎙', null];
      const rows = await database.sql.query<{ value: string | null; position: string }>(
        'SELECT value, position::text FROM unnest($1::text[]) WITH ORDINALITY AS item(value, position)', [arrayLiteral(values)],
      );
      expect(rows.map((row) => row.value)).toEqual(values);
      expect(rows.map((row) => row.position)).toEqual(values.map((_, index) => String(index + 1)));
    });

    it('feeds typed columns: uuids, integers and JSON documents', async () => {
      const rows = await database.sql.query<{ id: string; amount: string; metadata: unknown }>(
        'SELECT id::text, amount::text, metadata FROM unnest($1::uuid[], $2::bigint[], $3::jsonb[]) AS item(id, amount, metadata)',
        [
          arrayLiteral(['6f1c3c2e-58d4-4b2a-9a52-7d0d3f9e8a11', null]),
          arrayLiteral(['9007199254740993', '0']),
          arrayLiteral([JSON.stringify({ note: 'a "quoted", {braced} \\ value' }), JSON.stringify({})]),
        ],
      );
      expect(rows).toEqual([
        { id: '6f1c3c2e-58d4-4b2a-9a52-7d0d3f9e8a11', amount: '9007199254740993', metadata: { note: 'a "quoted", {braced} \\ value' } },
        { id: null, amount: '0', metadata: {} },
      ]);
    });
  });
});
