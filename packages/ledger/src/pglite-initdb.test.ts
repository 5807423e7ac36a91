// A new PGlite data dir is created (initdb) in a short-lived child process, so the memory initdb uses
// (~650 MB at its peak, kept by the allocator after it is freed) never belongs to the serving process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPgliteDataDir, openDatabase } from './database.js';

const MB = 1024 * 1024;

describe('creating a PGlite data dir', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-initdb-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('runs initdb in a child process: this process does not grow by initdb\'s memory', async () => {
    const dataDir = path.join(root, 'fresh', 'pglite');
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    const before = process.memoryUsage().rss;
    expect(await createPgliteDataDir(dataDir)).toBe(true);
    // In-process, PGlite's initdb takes this process's RSS up by ~650 MB (measured), and it stays.
    expect((process.memoryUsage().rss - before) / MB).toBeLessThan(150);
    expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);

    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      const [row] = await database.sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM "_prisma_migrations" WHERE finished_at IS NOT NULL`);
      expect(row!.count).toBeGreaterThan(0);
      await database.sql.query(`CREATE TABLE kept (value int)`);
      await database.sql.query(`INSERT INTO kept VALUES (7)`);
    } finally {
      await database.close();
    }
    // An existing dir is left as it is.
    expect(await createPgliteDataDir(dataDir)).toBe(true);
    const again = await openDatabase({ kind: 'pglite', dataDir });
    try {
      expect(await again.sql.query(`SELECT value FROM kept`)).toEqual([{ value: 7 }]);
    } finally {
      await again.close();
    }
  });

  it('reports false when the child cannot create it, and opening then fails with the cause', async () => {
    const file = path.join(root, 'a-file');
    fs.writeFileSync(file, 'not a directory');
    const dataDir = path.join(file, 'pglite');
    expect(await createPgliteDataDir(dataDir)).toBe(false);
    await expect(openDatabase({ kind: 'pglite', dataDir })).rejects.toThrow();
  });
});
