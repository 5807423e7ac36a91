// Runs a ledger suite once on PGlite (in memory) and once on a throwaway PostgreSQL database when
// DATABASE_URL is set (a plain note says it was skipped otherwise). The suite reads `database()`.
import { afterAll, beforeAll, describe } from 'vitest';
import { announceSkip, createTestDatabase, postgresUrl, type TestDatabase } from '@voice-router/test-support';
import { openDatabase, type Database } from '../database.js';

export function describeOnEachDatabase(title: string, suite: (database: () => Database, mode: 'pglite' | 'postgres') => void): void {
  for (const mode of ['pglite', 'postgres'] as const) {
    const runnable = mode === 'pglite' || Boolean(postgresUrl());
    if (!runnable) announceSkip(`${title} on PostgreSQL`, 'DATABASE_URL is not set');
    describe.runIf(runnable)(`${title} on ${mode}`, () => {
      let opened: Database | undefined;
      let testDatabase: TestDatabase | undefined;
      beforeAll(async () => {
        if (mode === 'postgres') {
          testDatabase = await createTestDatabase();
          opened = await openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 20 });
        } else {
          opened = await openDatabase({ kind: 'pglite-memory' });
        }
      });
      afterAll(async () => {
        await opened?.close();
        await testDatabase?.drop();
      });
      suite(() => opened!, mode);
    });
  }
}
