// Keys as members see them: every member lists the account's keys; the minter or an owner revokes one.
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

export type RevokeKeyOutcome = { ok: true; keyHash: string } | { ok: false; reason: 'not_found' | 'forbidden' };

/**
 * Soft-deletes a key: its minter may (wherever it lives), and so may an owner of the key's account;
 * another member gets 'forbidden'; anyone else, or an unknown or revoked key, 'not_found' (nothing is
 * revealed to non-members). Returns the key's hash so callers can drop it from caches.
 */
export async function revokeAccountKey(sql: SqlClient, input: { keyId: string; userId: string }): Promise<RevokeKeyOutcome> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.keyId)) return { ok: false, reason: 'not_found' };
  return sql.transaction(async (transaction) => {
    const [key] = await transaction.query<{ created_by_user_id: string | null; role: string | null }>(
      `SELECT k.created_by_user_id, m.role FROM api_keys k
       LEFT JOIN memberships m ON m.account_id = k.account_id AND m.user_id = $2::uuid
       WHERE k.id = $1::uuid AND k.revoked_at IS NULL FOR UPDATE OF k`,
      [input.keyId, input.userId],
    );
    const minter = key?.created_by_user_id === input.userId;
    if (!key || (!minter && key.role === null)) return { ok: false, reason: 'not_found' };
    if (!minter && key.role !== 'owner') return { ok: false, reason: 'forbidden' };
    const [revoked] = await transaction.query<{ key_hash: string }>(
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1::uuid RETURNING key_hash`,
      [input.keyId],
    );
    return { ok: true, keyHash: revoked!.key_hash };
  });
}
