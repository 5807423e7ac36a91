// The embedded database's stand-in for autovacuum: PostgreSQL's default rules, applied to PGlite.
import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { grantCredit } from './operations/grant-credit.js';
import { createUser } from './operations/manage-accounts.js';
import { maintenanceFor, startPgliteVacuum } from './pglite-vacuum.js';
import type { SqlClient } from './sql-client.js';

/** One table's statistics, as they are after everything so far (PGlite reports them only when told to). */
async function tableStats(sql: SqlClient, table: string) {
  await sql.query('SELECT pg_stat_force_next_flush()');
  const [row] = await sql.query<{ dead: number; vacuums: number; analyzes: number }>(
    `SELECT n_dead_tup::int AS dead, vacuum_count::int AS vacuums, analyze_count::int AS analyzes FROM pg_stat_user_tables WHERE relname = $1`, [table]);
  return row!;
}

describe('maintenanceFor (autovacuum defaults)', () => {
  const quiet = { table: 't', dead: 0, changed: 0, rows: 1_000, xid_age: 1_000 };
  it('vacuums past 50 + 20 % dead rows, analyzes past 50 + 10 % changed rows, and freezes old tables', () => {
    expect(maintenanceFor(quiet)).toBeUndefined();
    expect(maintenanceFor({ ...quiet, dead: 250 })).toBeUndefined();
    expect(maintenanceFor({ ...quiet, dead: 251 })).toBe('vacuum');
    expect(maintenanceFor({ ...quiet, changed: 150 })).toBeUndefined();
    expect(maintenanceFor({ ...quiet, changed: 151 })).toBe('analyze');
    expect(maintenanceFor({ ...quiet, dead: 251, changed: 151 })).toBe('vacuum_analyze');
    // Insert-only tables: analyzed as they grow, vacuumed only to freeze.
    expect(maintenanceFor({ ...quiet, changed: 10_000 })).toBe('analyze');
    expect(maintenanceFor({ ...quiet, xid_age: 200_000_001 })).toBe('vacuum');
  });
});

describe('startPgliteVacuum', () => {
  it('vacuums and analyzes the tables that churned, leaves the quiet ones alone, and frees the dead rows', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const vacuum = startPgliteVacuum(database.sql, { intervalMs: 60_000 });
    try {
      const { personalAccountId } = await createUser(database.prisma, { email: 'vacuum@example.test' });
      // A first pass for whatever migrations and the new user left to do: from here on, nothing is.
      await vacuum.runOnce();
      expect(await vacuum.runOnce()).toEqual([]);

      for (let index = 0; index < 300; index += 1) {
        await grantCredit(database.sql, { accountId: personalAccountId, amountMicros: 1n, source: 'admin' });
      }
      expect((await tableStats(database.sql, 'wallets')).dead).toBeGreaterThan(60);
      const done = await vacuum.runOnce();
      // 300 updates of one wallet row; 300 inserts into the ledger (analyzed, not vacuumed).
      expect(done).toContainEqual({ table: 'wallets', action: 'vacuum_analyze' });
      expect(done).toContainEqual({ table: 'ledger_entries', action: 'analyze' });
      expect(done.map(({ table }) => table)).not.toContain('users');
      expect(await tableStats(database.sql, 'wallets')).toEqual({ dead: 0, vacuums: 1, analyzes: 1 });
      expect(await vacuum.runOnce()).toEqual([]);
    } finally {
      await vacuum.stop();
      await database.close();
    }
  });

  it('runs on its timer and stops cleanly', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    const vacuum = startPgliteVacuum(database.sql, { intervalMs: 50 });
    try {
      const { personalAccountId } = await createUser(database.prisma, { email: 'timer@example.test' });
      for (let index = 0; index < 300; index += 1) {
        await grantCredit(database.sql, { accountId: personalAccountId, amountMicros: 1n, source: 'admin' });
      }
      const vacuumed = async () => (await tableStats(database.sql, 'wallets')).vacuums;
      const deadline = Date.now() + 10_000;
      while ((await vacuumed()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await vacuum.stop();
      const before = await vacuumed();
      expect(before).toBeGreaterThanOrEqual(1);
      for (let index = 0; index < 300; index += 1) {
        await grantCredit(database.sql, { accountId: personalAccountId, amountMicros: 1n, source: 'admin' });
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await vacuumed()).toBe(before);
    } finally {
      await vacuum.stop();
      await database.close();
    }
  });
});
