// Runs a ledger suite once on PGlite (in memory) and once on a throwaway PostgreSQL database when
// DATABASE_URL is set (a plain note says it was skipped otherwise). The suite reads `database()`.
// describeOnPostgres runs a suite on the throwaway PostgreSQL database only.
import { afterAll, beforeAll, describe } from 'vitest';
import { announceSkip, createTestDatabase, postgresUrl, type TestDatabase } from '@voice-router/test-support';
import { openDatabase, type Database } from '../database.js';

/** Opens the suite's database before its tests and closes (and, on PostgreSQL, drops) it after them. */
function openForSuite(mode: 'pglite' | 'postgres', poolSize: number): () => { database: Database; url?: string } {
  let opened: Database | undefined;
  let testDatabase: TestDatabase | undefined;
  beforeAll(async () => {
    if (mode === 'postgres') {
      testDatabase = await createTestDatabase();
      opened = await openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize });
    } else {
      opened = await openDatabase({ kind: 'pglite-memory' });
    }
  });
  afterAll(async () => {
    await opened?.close();
    await testDatabase?.drop();
  });
  return () => ({ database: opened!, url: testDatabase?.url });
}

export function describeOnEachDatabase(title: string, suite: (database: () => Database, mode: 'pglite' | 'postgres') => void): void {
  for (const mode of ['pglite', 'postgres'] as const) {
    const runnable = mode === 'pglite' || Boolean(postgresUrl());
    if (!runnable) announceSkip(`${title} on PostgreSQL`, 'DATABASE_URL is not set');
    describe.runIf(runnable)(`${title} on ${mode}`, () => {
      const opened = openForSuite(mode, 20);
      suite(() => opened().database, mode);
    });
  }
}

export function describeOnPostgres(
  title: string, suite: (opened: () => { database: Database; url: string }) => void, { poolSize = 10 }: { poolSize?: number } = {},
): void {
  const runnable = Boolean(postgresUrl());
  if (!runnable) announceSkip(title, 'DATABASE_URL is not set');
  describe.runIf(runnable)(title, () => {
    const opened = openForSuite('postgres', poolSize);
    suite(() => ({ database: opened().database, url: opened().url! }));
  });
}
