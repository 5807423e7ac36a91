// Applies prisma/migrations at start-up without Prisma's native engine: each pending migration.sql
// runs in its own transaction under an advisory lock and is recorded in `_prisma_migrations` with the
// columns and sha256 checksums the official CLI uses, so `prisma migrate deploy` can take over later.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SqlClient } from './sql-client.js';

/** Arbitrary but fixed: every replica that starts at once waits on the same lock. */
const MIGRATION_LOCK_ID = 72_707_369;

export const migrationsDirectory = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(directory = migrationsDirectory): Migration[] {
  return fs
    .readdirSync(directory, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(directory, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: crypto.createHash('sha256').update(sql).digest('hex') };
    });
}

const CREATE_HISTORY_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationChecksumError extends Error {}

/** Returns the names of the migrations it applied. */
export async function applyMigrations(sql: SqlClient, migrations = readMigrations()): Promise<string[]> {
  return sql.withAdvisoryLock(MIGRATION_LOCK_ID, async (locked) => {
    await locked.query(CREATE_HISTORY_TABLE);
    const appliedRows = await locked.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(appliedRows.map((row) => [row.migration_name, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = applied.get(migration.name);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new MigrationChecksumError(`migration ${migration.name} was edited after it was applied`);
        }
        continue;
      }
      await locked.transaction(async (transaction) => {
        await transaction.execScript(migration.sql);
        await transaction.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [crypto.randomUUID(), migration.checksum, migration.name],
        );
      });
      done.push(migration.name);
    }
    return done;
  });
}
