// Run-time catalog facts shared by every replica: each provider's last good voice list and its last smoke
// synthesis. Refreshers claim a provider before calling its API, so N workers make one call per interval.
import type { SqlClient } from '../sql-client.js';

export interface StoredProviderState {
  providerId: string;
  /** The last good voice list (opaque JSON to this package), or undefined before the first success. */
  voices?: unknown;
  voicesRefreshedAt?: Date;
  voicesFailure?: string;
  lastSmokeTestAt?: Date;
  smokeTestFailure?: string;
  updatedAt: Date;
}

export type CatalogTask = 'voices' | 'smoke_test';

const CLAIM_COLUMN: Record<CatalogTask, string> = { voices: 'voices_claimed_at', smoke_test: 'smoke_test_claimed_at' };

/**
 * Claims `task` for one provider unless another process claimed it less than `intervalMs` ago. Returns true
 * when this caller should do the work. `intervalMs` 0 always claims (a manual run).
 */
export async function claimCatalogTask(sql: SqlClient, providerId: string, task: CatalogTask, intervalMs: number): Promise<boolean> {
  const column = CLAIM_COLUMN[task];
  const rows = await sql.query(
    `INSERT INTO provider_catalog_state (provider_id, ${column}) VALUES ($1, now())
     ON CONFLICT (provider_id) DO UPDATE SET ${column} = now()
       WHERE provider_catalog_state.${column} IS NULL
          OR provider_catalog_state.${column} <= now() - ($2::bigint * interval '1 millisecond')
     RETURNING provider_id`,
    [providerId, BigInt(Math.max(0, Math.floor(intervalMs)))],
  );
  return rows.length === 1;
}

/** Stores a complete voice list that the provider's API just returned. */
export async function saveProviderVoices(sql: SqlClient, providerId: string, voices: unknown, refreshedAt: Date): Promise<void> {
  await sql.query(
    `INSERT INTO provider_catalog_state (provider_id, voices, voices_refreshed_at, voices_failure, updated_at)
     VALUES ($1, $2::jsonb, $3, NULL, now())
     ON CONFLICT (provider_id) DO UPDATE SET voices = EXCLUDED.voices, voices_refreshed_at = EXCLUDED.voices_refreshed_at,
       voices_failure = NULL, updated_at = now()`,
    [providerId, JSON.stringify(voices), refreshedAt],
  );
}

/** Notes a failed refresh; the last good list stays. `failure` is a router-written category, never upstream text. */
export async function recordVoicesFailure(sql: SqlClient, providerId: string, failure: string): Promise<void> {
  await sql.query(
    `INSERT INTO provider_catalog_state (provider_id, voices_failure, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (provider_id) DO UPDATE SET voices_failure = EXCLUDED.voices_failure, updated_at = now()`,
    [providerId, failure],
  );
}

/** Records a smoke synthesis: a success moves last_smoke_test_at; a failure keeps it and records why. */
export async function recordSmokeTest(sql: SqlClient, providerId: string, outcome: { ok: true; at: Date } | { ok: false; failure: string }): Promise<void> {
  if (outcome.ok) {
    await sql.query(
      `INSERT INTO provider_catalog_state (provider_id, last_smoke_test_at, smoke_test_failure, updated_at) VALUES ($1, $2, NULL, now())
       ON CONFLICT (provider_id) DO UPDATE SET last_smoke_test_at = GREATEST(provider_catalog_state.last_smoke_test_at, EXCLUDED.last_smoke_test_at),
         smoke_test_failure = NULL, updated_at = now()`,
      [providerId, outcome.at],
    );
    return;
  }
  await sql.query(
    `INSERT INTO provider_catalog_state (provider_id, smoke_test_failure, updated_at) VALUES ($1, $2, now())
     ON CONFLICT (provider_id) DO UPDATE SET smoke_test_failure = EXCLUDED.smoke_test_failure, updated_at = now()`,
    [providerId, outcome.failure],
  );
}

interface StateRow {
  provider_id: string;
  voices: unknown;
  voices_refreshed_at: Date | string | null;
  voices_failure: string | null;
  last_smoke_test_at: Date | string | null;
  smoke_test_failure: string | null;
  updated_at: Date | string;
}

const toDate = (value: Date | string | null): Date | undefined => (value === null ? undefined : new Date(value));

/** Every provider's stored state; `changedAfter` limits it to rows updated since (cheap polling by data planes). */
export async function loadProviderStates(sql: SqlClient, changedAfter?: Date): Promise<StoredProviderState[]> {
  const rows = changedAfter
    ? await sql.query<StateRow>('SELECT * FROM provider_catalog_state WHERE updated_at > $1 ORDER BY provider_id', [changedAfter])
    : await sql.query<StateRow>('SELECT * FROM provider_catalog_state ORDER BY provider_id');
  return rows.map((row) => ({
    providerId: row.provider_id,
    voices: typeof row.voices === 'string' ? (JSON.parse(row.voices) as unknown) : (row.voices ?? undefined),
    voicesRefreshedAt: toDate(row.voices_refreshed_at),
    voicesFailure: row.voices_failure ?? undefined,
    lastSmokeTestAt: toDate(row.last_smoke_test_at),
    smokeTestFailure: row.smoke_test_failure ?? undefined,
    updatedAt: new Date(row.updated_at),
  }));
}

/** The functions above bound to one database, in the shape the providers' catalog refresher takes (CatalogStore). */
export function createSqlCatalogStore(sql: SqlClient) {
  return {
    claim: (providerId: string, task: CatalogTask, intervalMs: number) => claimCatalogTask(sql, providerId, task, intervalMs),
    saveVoices: (providerId: string, voices: unknown, refreshedAt: Date) => saveProviderVoices(sql, providerId, voices, refreshedAt),
    recordVoicesFailure: (providerId: string, failure: string) => recordVoicesFailure(sql, providerId, failure),
    recordSmokeTest: (providerId: string, outcome: { ok: true; at: Date } | { ok: false; failure: string }) => recordSmokeTest(sql, providerId, outcome),
    load: (changedAfter?: Date) => loadProviderStates(sql, changedAfter),
  };
}
