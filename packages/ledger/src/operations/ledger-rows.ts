// Shapes shared by the ledger operations.
import { toMicros } from '../micros.js';

export type LedgerKind = 'top-up' | 'reserve' | 'commit' | 'refund' | 'void';

export interface LedgerRow {
  id: string;
  kind: LedgerKind;
  microsDelta: bigint;
  microsBalanceAfter: bigint;
  reservationId: string | null;
  source: string;
  metadata: Record<string, unknown>;
  createdAt: Date;
}

export function mapLedgerRow(row: Record<string, unknown>): LedgerRow {
  return {
    id: String(row.id),
    kind: row.kind as LedgerKind,
    microsDelta: toMicros(row.micros_delta),
    microsBalanceAfter: toMicros(row.micros_balance_after),
    reservationId: (row.reservation_id as string | null) ?? null,
    source: row.source as string,
    metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) as Record<string, unknown>,
    createdAt: row.created_at instanceof Date ? row.created_at : new Date(row.created_at as string),
  };
}
