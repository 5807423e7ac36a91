// A throwaway PostgreSQL database per test suite, created next to the one DATABASE_URL names.
import crypto from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export function postgresUrl(): string | undefined {
  return process.env.DATABASE_URL || undefined;
}

export async function createTestDatabase(baseUrl = postgresUrl()): Promise<TestDatabase> {
  if (!baseUrl) throw new Error('DATABASE_URL is not set');
  const name = `vr_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: baseUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
