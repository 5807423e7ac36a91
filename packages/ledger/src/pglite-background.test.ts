// On PGlite (one statement at a time, run in the order sent) work no request waits for goes through
// `sql.background`: it waits while the requests' statements are in flight, so a reservation is not
// queued behind a settlement batch, and it is never held back for more than BACKGROUND_MAX_WAIT_MS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_MAX_WAIT_MS, backgroundOf, openDatabase, type Database } from './index.js';

describe('background statements on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
  });
  afterAll(async () => {
    await database?.close();
  });

  it('go after the statements sent while they wait', async () => {
    const order: string[] = [];
    const run = (label: string, sent: Promise<unknown>) => sent.then(() => order.push(label));
    const background = backgroundOf(database.sql);
    expect(background).not.toBe(database.sql);
    const first = run('request 1', database.sql.query('SELECT pg_sleep(0.005)'));
    const settlement = run('settlement', background.query('SELECT 1'));
    const second = run('request 2', database.sql.query('SELECT 2'));
    const third = run('request 3', database.sql.transaction(async (client) => client.query('SELECT 3')));
    await Promise.all([first, settlement, second, third]);
    expect(order).toEqual(['request 1', 'request 2', 'request 3', 'settlement']);
  });

  it('are never held back for long by a steady stream of other statements', async () => {
    const background = backgroundOf(database.sql);
    let streaming = true;
    let sent = 0;
    // Two streams back to back for 300 ms: a statement of the requests is always in flight.
    const started = performance.now();
    const loop = async () => {
      while (performance.now() - started < 300) {
        sent += 1;
        await database.sql.query('SELECT pg_sleep(0.001)');
      }
    };
    const stream = Promise.all([loop(), loop()]).then(() => {
      streaming = false;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const waits: number[] = [];
    for (let index = 0; index < 3; index += 1) {
      const at = performance.now();
      await background.query('SELECT 1');
      waits.push(performance.now() - at);
    }
    // All three went while the stream still ran (not starved until it ended), each after waiting for
    // the other statements for BACKGROUND_MAX_WAIT_MS.
    expect(streaming).toBe(true);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(BACKGROUND_MAX_WAIT_MS - 1);
    await stream;
    expect(sent).toBeGreaterThan(10);
  });

  it('inside a transaction run in it (a background view there would wait outside it)', async () => {
    const value = await backgroundOf(database.sql).transaction(async (client) => {
      expect(backgroundOf(client)).toBe(client);
      const [row] = await backgroundOf(client).query<{ n: number }>('SELECT 7 AS n');
      return row!.n;
    });
    expect(value).toBe(7);
  });
});
