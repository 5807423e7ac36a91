// The in-process settler's bounds: a drain that cannot finish gives up loudly, and the backlog held
// in memory is capped. PGlite runs one statement at a time, so an open transaction holds settlement back.
import { describe, expect, it } from 'vitest';
import { getCredits, openDatabase } from '@voice-router/ledger';
import { fundedAccount, outcomes, recordingLogger, reserveMany, sleep } from '../test/fixtures.js';
import { createInProcessSettler } from './index.js';

async function heldDatabase() {
  const database = await openDatabase({ kind: 'pglite-memory' });
  const accountId = await fundedAccount(database, 10_000n);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { database, accountId, gate, release };
}

describe('in-process settler bounds', () => {
  it('gives up a drain that cannot finish within its bound, names what it abandoned, and keeps it from the reaper meanwhile', async () => {
    const { database, accountId, gate, release } = await heldDatabase();
    const [id] = await reserveMany(database.sql, accountId, 1);
    const holding = database.sql.transaction(() => gate);
    const logger = recordingLogger();
    const settler = createInProcessSettler({ sql: database.sql, logger });
    settler.settle({ action: 'commit', reservationId: id! });
    const started = Date.now();
    expect(await settler.drain({ timeoutMs: 300 })).toEqual({ abandoned: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    const complaint = logger.lines.find((line) => line.level === 'error');
    expect(complaint?.fields?.reservations).toEqual([`commit:${id}`]);
    expect(await settler.inFlight([id!, crypto.randomUUID()])).toEqual(new Set([id]));
    release();
    await holding;
    expect(await settler.close()).toEqual({ abandoned: 0 });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 9_900n, reservedMicros: 0n });
    await database.close();
  });

  it('holds at most maxPending settlements; the rest are logged and left to the reaper', async () => {
    const { database, accountId, gate, release } = await heldDatabase();
    const ids = await reserveMany(database.sql, accountId, 5);
    const holding = database.sql.transaction(() => gate);
    const logger = recordingLogger();
    const settler = createInProcessSettler({ sql: database.sql, logger, maxPending: 3 });
    for (const id of ids) settler.settle({ action: 'commit', reservationId: id });
    expect(logger.lines.filter((line) => /backlog is full/.test(line.message)).map((line) => line.fields?.reservationId)).toEqual(ids.slice(3));
    expect(await settler.inFlight(ids)).toEqual(new Set(ids.slice(0, 3)));
    // What the settlements-pending metrics read.
    await sleep(20);
    const held = settler.backlog();
    expect(held.pending).toBe(3);
    expect(held.oldestAgeMs).toBeGreaterThanOrEqual(10);
    release();
    await holding;
    await settler.close();
    expect(settler.backlog()).toEqual({ pending: 0, oldestAgeMs: 0 });
    expect((await outcomes(database.sql, ids)).states).toEqual({ committed: 3, pending: 2 });
    await database.close();
  });
});
