// Shared by the settlement suites: funded wallets with pending reservations, ledger read-backs, and a
// logger that remembers what it was told.
import crypto from 'node:crypto';
import { createUser, grantCredit, reserveCredit, type Database, type SqlClient } from '@voice-router/ledger';

export async function fundedAccount(database: Database, micros: bigint): Promise<string> {
  const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
  await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
  return user.personalAccountId;
}

export async function reserveMany(sql: SqlClient, accountId: string, count: number, amount = 100n): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const reservationId = crypto.randomUUID();
    const result = await reserveCredit(sql, { reservationId, accountId, apiKeyId: null, amountMicros: amount, provider: 'local', model: 'm', characters: 1 });
    if (!result.ok) throw new Error('reservation refused');
    ids.push(reservationId);
  }
  return ids;
}

/** How each reservation ended, and how many settlement rows each has (must never exceed one). */
export async function outcomes(sql: SqlClient, ids: string[]): Promise<{ states: Record<string, number>; rowsPerReservation: number[]; voidSources: string[] }> {
  const states: Record<string, number> = {};
  for (const row of await sql.query<{ state: string; count: number }>(
    `SELECT state, count(*)::int AS count FROM reservations WHERE id = ANY($1::uuid[]) GROUP BY state`, [`{${ids.join(',')}}`],
  )) {
    states[row.state] = Number(row.count);
  }
  const rows = await sql.query<{ reservation_id: string; count: number }>(
    `SELECT reservation_id, count(*)::int AS count FROM ledger_entries
     WHERE reservation_id = ANY($1::uuid[]) AND kind IN ('commit', 'void') GROUP BY reservation_id`, [`{${ids.join(',')}}`],
  );
  const voids = await sql.query<{ source: string }>(
    `SELECT source FROM ledger_entries WHERE reservation_id = ANY($1::uuid[]) AND kind = 'void'`, [`{${ids.join(',')}}`],
  );
  return { states, rowsPerReservation: rows.map((row) => Number(row.count)), voidSources: voids.map((row) => row.source) };
}

export async function waitFor(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface RecordingLogger {
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  lines: Array<{ level: string; message: string; fields?: Record<string, unknown> }>;
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  return {
    lines,
    warn: (message, fields) => lines.push({ level: 'warn', message, fields }),
    error: (message, fields) => lines.push({ level: 'error', message, fields }),
    info: (message, fields) => lines.push({ level: 'info', message, fields }),
  };
}
