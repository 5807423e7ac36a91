// Usage rollups from the newest `limit` commit and void rows of the last `days` days.
import type { SqlClient } from '../sql-client.js';
import { toMicros, microsToNumber } from '../micros.js';
import { ACCOUNT_ROWS, NEWEST_FIRST } from './read-wallet.js';

export interface UsageReport {
  totals: { requests: number; costMicros: number; errorCount: number };
  byProvider: Array<{ provider: string; requests: number; costMicros: number }>;
  byErrorCode: Array<{ code: string; count: number }>;
  byDay: Array<{ day: string; provider: string; costMicros: number; requests: number }>;
  recent: Array<{ id: string; createdAt: string; status: 'committed' | 'voided'; costMicros: number }>;
}

export async function usageReport(sql: SqlClient, input: { accountId: string; days: number; limit: number }): Promise<UsageReport> {
  const rows = await sql.query<{ id: unknown; kind: string; micros_delta: unknown; reservation_id: string | null; metadata: unknown; created_at: Date | string }>(
    `SELECT id, kind, micros_delta, reservation_id, metadata, created_at FROM ledger_entries
     WHERE ${ACCOUNT_ROWS} AND kind IN ('commit', 'void') AND created_at >= now() - make_interval(days => $2::int)
     ${NEWEST_FIRST} LIMIT $3::int`,
    [input.accountId, input.days, input.limit],
    'ledger_usage',
  );
  let costTotal = 0n;
  let errorCount = 0;
  const providers = new Map<string, { requests: number; cost: bigint }>();
  const errors = new Map<string, number>();
  const days = new Map<string, { day: string; provider: string; cost: bigint; requests: number }>();
  const recent: UsageReport['recent'] = [];
  for (const row of rows) {
    const metadata = (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>;
    const provider = typeof metadata.provider === 'string' ? metadata.provider : 'unknown';
    const cost = row.kind === 'commit' ? -toMicros(row.micros_delta) : 0n;
    const createdAt = new Date(row.created_at);
    costTotal += cost;
    const byProvider = providers.get(provider) ?? { requests: 0, cost: 0n };
    byProvider.requests += 1;
    byProvider.cost += cost;
    providers.set(provider, byProvider);
    if (row.kind === 'void') {
      errorCount += 1;
      const code = typeof metadata.errorCode === 'string' ? metadata.errorCode : 'unknown';
      errors.set(code, (errors.get(code) ?? 0) + 1);
    }
    const day = createdAt.toISOString().slice(0, 10);
    const dayKey = `${day} ${provider}`;
    const dayRow = days.get(dayKey) ?? { day, provider, cost: 0n, requests: 0 };
    dayRow.cost += cost;
    dayRow.requests += 1;
    days.set(dayKey, dayRow);
    recent.push({
      id: row.reservation_id ?? String(row.id),
      createdAt: createdAt.toISOString(),
      status: row.kind === 'commit' ? 'committed' : 'voided',
      costMicros: microsToNumber(cost),
    });
  }
  return {
    totals: { requests: rows.length, costMicros: microsToNumber(costTotal), errorCount },
    byProvider: [...providers].map(([provider, value]) => ({ provider, requests: value.requests, costMicros: microsToNumber(value.cost) }))
      .sort((a, b) => b.costMicros - a.costMicros || b.requests - a.requests),
    byErrorCode: [...errors].map(([code, count]) => ({ code, count })).sort((a, b) => b.count - a.count),
    byDay: [...days.values()].map((value) => ({ day: value.day, provider: value.provider, costMicros: microsToNumber(value.cost), requests: value.requests }))
      .sort((a, b) => a.day.localeCompare(b.day) || a.provider.localeCompare(b.provider)),
    recent,
  };
}
