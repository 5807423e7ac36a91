// API keys: `pk_` + 32 random bytes. Only a sha256 of the secret is stored; lookups hash the
// presented key, so a database leak does not leak usable keys.
import crypto from 'node:crypto';
import type { PrismaClient } from '../generated/prisma/client.js';
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { arrayLiteral } from './array-literal.js';

export const API_KEY_PREFIX = 'pk_';

/** On every speech request: the one-shot `crypto.hash` costs about half of createHash/update/digest. */
export function hashApiKey(keyValue: string): string {
  return crypto.hash('sha256', keyValue, 'hex');
}

export interface ApiKeyLimits {
  maxConcurrency?: number | null;
  rateLimitPerMinute?: number | null;
  dailySpendCapMicros?: bigint | null;
  monthlySpendCapMicros?: bigint | null;
}

export interface CreatedApiKey {
  id: string;
  accountId: string;
  name: string;
  keySuffix: string;
  keyValue: string;
  createdAt: Date;
}

export async function createApiKey(
  prisma: PrismaClient,
  input: { accountId: string; name: string; createdByUserId?: string | null } & ApiKeyLimits,
): Promise<CreatedApiKey> {
  const keyValue = API_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
  const key = await prisma.apiKey.create({
    data: {
      id: crypto.randomUUID(),
      accountId: input.accountId,
      createdByUserId: input.createdByUserId ?? null,
      name: input.name,
      keyHash: hashApiKey(keyValue),
      keySuffix: keyValue.slice(-4),
      maxConcurrency: input.maxConcurrency ?? null,
      rateLimitPerMinute: input.rateLimitPerMinute ?? null,
      dailySpendCapMicros: input.dailySpendCapMicros ?? null,
      monthlySpendCapMicros: input.monthlySpendCapMicros ?? null,
    },
  });
  return { id: key.id, accountId: key.accountId, name: key.name, keySuffix: key.keySuffix, keyValue, createdAt: key.createdAt };
}

export interface ActiveApiKey {
  id: string;
  accountId: string;
  /** The key's own limits; null means the deployment default (rate, concurrency) or no cap (spend). */
  maxConcurrency: number | null;
  rateLimitPerMinute: number | null;
  dailySpendCapMicros: bigint | null;
  monthlySpendCapMicros: bigint | null;
}

interface ActiveApiKeyRow {
  id: string;
  account_id: string;
  max_concurrency: number | null;
  rate_limit_per_minute: number | null;
  daily_spend_cap_micros: unknown;
  monthly_spend_cap_micros: unknown;
}

const optionalMicros = (value: unknown) => (value === null || value === undefined ? null : toMicros(value));

const ACTIVE_KEY_COLUMNS = 'id, account_id, max_concurrency, rate_limit_per_minute, daily_spend_cap_micros, monthly_spend_cap_micros';

const activeApiKey = (row: ActiveApiKeyRow): ActiveApiKey => ({
  id: row.id,
  accountId: row.account_id,
  maxConcurrency: row.max_concurrency,
  rateLimitPerMinute: row.rate_limit_per_minute,
  dailySpendCapMicros: optionalMicros(row.daily_spend_cap_micros),
  monthlySpendCapMicros: optionalMicros(row.monthly_spend_cap_micros),
});

/** The data plane's authentication lookup (cached by the caller). Revoked keys are not found. */
export async function findActiveApiKey(sql: SqlClient, keyHash: string): Promise<ActiveApiKey | undefined> {
  const rows = await sql.query<ActiveApiKeyRow>(
    `SELECT ${ACTIVE_KEY_COLUMNS} FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL`,
    [keyHash],
    'ledger_find_api_key',
  );
  return rows[0] && activeApiKey(rows[0]);
}

/**
 * The active keys among `keyHashes`, by hash, in one statement (the data plane refreshes the keys it
 * serves this way). A hash that is unknown or revoked is absent from the map.
 */
export async function findActiveApiKeys(sql: SqlClient, keyHashes: readonly string[]): Promise<Map<string, ActiveApiKey>> {
  const found = new Map<string, ActiveApiKey>();
  if (keyHashes.length === 0) return found;
  const rows = await sql.query<ActiveApiKeyRow & { key_hash: string }>(
    `SELECT key_hash, ${ACTIVE_KEY_COLUMNS} FROM api_keys
     WHERE key_hash = ANY($1::text[]) AND revoked_at IS NULL`,
    [arrayLiteral(keyHashes)],
    'ledger_find_api_keys',
  );
  for (const row of rows) found.set(row.key_hash, activeApiKey(row));
  return found;
}

export async function revokeApiKey(prisma: PrismaClient, input: { id: string }): Promise<boolean> {
  const result = await prisma.apiKey.updateMany({ where: { id: input.id, revokedAt: null }, data: { revokedAt: new Date() } });
  return result.count > 0;
}
