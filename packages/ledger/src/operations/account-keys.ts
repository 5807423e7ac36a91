// Keys as members see them: every member lists the account's keys; only the minter revokes one.
import type { SqlClient } from '../sql-client.js';
import { toMicros, microsToNumber } from '../micros.js';

export interface AccountKey {
  id: string;
  name: string;
  keySuffix: string;
  maxConcurrency: number | null;
  rateLimitPerMinute: number | null;
  dailySpendCapMicros: number | null;
  monthlySpendCapMicros: number | null;
  createdAt: string;
  createdBy: string | null;
  createdByUserId: string | null;
}

export async function listAccountKeys(sql: SqlClient, accountId: string): Promise<AccountKey[]> {
  return selectAccountKeys(sql, accountId, null);
}

/** One active key of the account as members see it (e.g. right after it was created). */
export async function findAccountKey(sql: SqlClient, accountId: string, keyId: string): Promise<AccountKey | undefined> {
  return (await selectAccountKeys(sql, accountId, keyId))[0];
}

async function selectAccountKeys(sql: SqlClient, accountId: string, keyId: string | null): Promise<AccountKey[]> {
  const rows = await sql.query<Record<string, unknown>>(
    `SELECT k.id, k.name, k.key_suffix, k.max_concurrency, k.rate_limit_per_minute, k.daily_spend_cap_micros,
            k.monthly_spend_cap_micros, k.created_at, k.created_by_user_id, u.email
     FROM api_keys k LEFT JOIN users u ON u.id = k.created_by_user_id
     WHERE k.account_id = $1::uuid AND k.revoked_at IS NULL AND ($2::uuid IS NULL OR k.id = $2::uuid)
     ORDER BY k.created_at DESC`,
    [accountId, keyId],
  );
  const optionalMicros = (value: unknown) => (value === null || value === undefined ? null : microsToNumber(toMicros(value)));
  return rows.map((row) => ({
    id: row.id as string,
    name: row.name as string,
    keySuffix: row.key_suffix as string,
    maxConcurrency: (row.max_concurrency as number | null) ?? null,
    rateLimitPerMinute: (row.rate_limit_per_minute as number | null) ?? null,
    dailySpendCapMicros: optionalMicros(row.daily_spend_cap_micros),
    monthlySpendCapMicros: optionalMicros(row.monthly_spend_cap_micros),
    createdAt: new Date(row.created_at as string).toISOString(),
    createdBy: (row.email as string | null) ?? null,
    createdByUserId: (row.created_by_user_id as string | null) ?? null,
  }));
}

/** Soft-deletes a key the user minted. Returns its hash (to drop it from caches) or undefined. */
export async function revokeOwnKey(sql: SqlClient, input: { keyId: string; userId: string }): Promise<string | undefined> {
  if (!/^[0-9a-f-]{36}$/i.test(input.keyId)) return undefined;
  const rows = await sql.query<{ key_hash: string }>(
    `UPDATE api_keys SET revoked_at = now() WHERE id = $1::uuid AND created_by_user_id = $2::uuid AND revoked_at IS NULL RETURNING key_hash`,
    [input.keyId, input.userId],
  );
  return rows[0]?.key_hash;
}
