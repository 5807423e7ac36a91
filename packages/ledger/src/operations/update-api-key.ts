// Changes a key's name and limits after creation: by the member who minted it or an owner of the
// account it belongs to. A spend cap that appears where there was none first counts what the key
// already spent in the current window, so a cap set at noon covers the whole UTC day.
import type { SqlClient } from '../sql-client.js';

export interface ApiKeyChanges {
  name?: string;
  /** null: back to the deployment default. */
  maxConcurrency?: number | null;
  rateLimitPerMinute?: number | null;
  /** null: no cap. */
  dailySpendCapMicros?: bigint | null;
  monthlySpendCapMicros?: bigint | null;
}

const COLUMNS: Record<keyof ApiKeyChanges, string> = {
  name: 'name',
  maxConcurrency: 'max_concurrency',
  rateLimitPerMinute: 'rate_limit_per_minute',
  dailySpendCapMicros: 'daily_spend_cap_micros',
  monthlySpendCapMicros: 'monthly_spend_cap_micros',
};
const CASTS: Record<keyof ApiKeyChanges, string> = {
  name: 'text', maxConcurrency: 'int', rateLimitPerMinute: 'int', dailySpendCapMicros: 'bigint', monthlySpendCapMicros: 'bigint',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Recounts one window of a key from its reservations (committed plus still pending) and marks the
// pending ones as counted there, so their voids give the amount back. Reservations a replica makes
// with a cached, cap-less view of the key during the next AUTH_CACHE_TTL_MS are not counted. Requests
// paid from an allowance (only a key without caps has them) have no reservation row: their commit rows
// in the ledger name the key in their metadata, and count too. Rows written before that (which have a
// reservation row and no key in their metadata) count once, through the reservation. Finding them reads
// the account's ledger rows (its index has no time in it): this runs only when a key's caps change.
function recountWindow(kind: 'day' | 'month'): string {
  const start = kind === 'day' ? `(now() AT TIME ZONE 'UTC')::date` : `date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
  const column = kind === 'day' ? 'spend_day' : 'spend_month';
  return `
WITH window_start AS (SELECT ${start} AS day), counted AS (
  UPDATE reservations SET ${column} = window_start.day FROM window_start
  WHERE api_key_id = $1::uuid AND state = 'pending' AND ${column} IS NULL
    AND created_at >= (window_start.day::timestamp AT TIME ZONE 'UTC')
  RETURNING 1
), spent AS (
  SELECT coalesce(sum(r.amount_micros), 0)::bigint AS micros FROM reservations r, window_start
  WHERE r.api_key_id = $1::uuid AND r.state IN ('pending', 'committed')
    AND r.created_at >= (window_start.day::timestamp AT TIME ZONE 'UTC')
), paid AS (
  SELECT coalesce(sum(-e.micros_delta), 0)::bigint AS micros FROM ledger_entries e, window_start
  WHERE e.account_id = (SELECT account_id FROM api_keys WHERE id = $1::uuid) AND e.kind = 'commit'
    AND e.metadata->>'apiKeyId' = ($1::uuid)::text
    AND e.created_at >= (window_start.day::timestamp AT TIME ZONE 'UTC')
), total AS (
  SELECT (spent.micros + paid.micros)::bigint AS micros FROM spent, paid
)
INSERT INTO key_spend (api_key_id, window_kind, window_start, spent_micros, cap_micros)
SELECT $1::uuid, '${kind}', window_start.day, total.micros, greatest(total.micros, $2::bigint) FROM window_start, total
ON CONFLICT (api_key_id, window_kind, window_start) DO UPDATE
  SET spent_micros = excluded.spent_micros, cap_micros = excluded.cap_micros`;
}

/**
 * Applies `changes` to an active key the user may edit. Returns the key's hash (for caches) and its
 * account, or undefined when there is no such key or the user may not change it.
 */
export async function updateApiKey(
  sql: SqlClient, input: { keyId: string; userId: string; changes: ApiKeyChanges },
): Promise<{ keyHash: string; accountId: string } | undefined> {
  if (!UUID.test(input.keyId)) return undefined;
  return sql.transaction(async (client) => {
    const [current] = await client.query<{ key_hash: string; account_id: string; daily_spend_cap_micros: unknown; monthly_spend_cap_micros: unknown }>(
      `SELECT k.key_hash, k.account_id, k.daily_spend_cap_micros, k.monthly_spend_cap_micros FROM api_keys k
       WHERE k.id = $1::uuid AND k.revoked_at IS NULL
         AND (k.created_by_user_id = $2::uuid OR EXISTS (
           SELECT 1 FROM memberships m WHERE m.account_id = k.account_id AND m.user_id = $2::uuid AND m.role = 'owner'))
       FOR UPDATE OF k`,
      [input.keyId, input.userId],
    );
    if (!current) return undefined;
    const fields = (Object.keys(input.changes) as Array<keyof ApiKeyChanges>).filter((field) => input.changes[field] !== undefined);
    if (fields.length > 0) {
      const assignments = fields.map((field, index) => `${COLUMNS[field]} = $${index + 2}::${CASTS[field]}`);
      await client.query(`UPDATE api_keys SET ${assignments.join(', ')} WHERE id = $1::uuid`, [
        input.keyId, ...fields.map((field) => input.changes[field] ?? null),
      ]);
    }
    const daily = input.changes.dailySpendCapMicros;
    if (daily !== undefined && daily !== null && current.daily_spend_cap_micros === null) {
      await client.query(recountWindow('day'), [input.keyId, daily]);
    }
    const monthly = input.changes.monthlySpendCapMicros;
    if (monthly !== undefined && monthly !== null && current.monthly_spend_cap_micros === null) {
      await client.query(recountWindow('month'), [input.keyId, monthly]);
    }
    return { keyHash: current.key_hash, accountId: current.account_id };
  });
}
