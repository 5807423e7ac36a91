// `admin migrate`, the command a deployment's migration Job runs before the apps start: it applies
// every pending migration once, reports them, and finds nothing to do the second time.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readMigrations } from '@voice-router/ledger';
import { announceSkip, createTestDatabase, postgresUrl, type TestDatabase } from '@voice-router/test-support';

const entry = fileURLToPath(new URL('../dist/main.js', import.meta.url));
if (!postgresUrl()) announceSkip('admin migrate', 'DATABASE_URL is not set');

function admin(databaseUrl: string, ...args: string[]): Record<string, unknown> {
  const result = spawnSync(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`admin ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

describe.runIf(postgresUrl())('admin migrate', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database?.drop();
  });

  it('applies every migration to an empty database, then reports nothing left to apply', () => {
    const names = readMigrations().map((migration) => migration.name);
    expect(names.length).toBeGreaterThan(0);
    expect(admin(database.url, 'migrate')).toEqual({ applied: names });
    expect(admin(database.url, 'migrate')).toEqual({ applied: [] });
    expect(admin(database.url, 'list-accounts')).toEqual({ accounts: [] });
  });
});
