// Sessions: console cookies and CLI bearer tokens (`vr_session_…`), stored as hashes.
import crypto from 'node:crypto';
import type { SqlClient } from '../sql-client.js';
import { randomToken, sha256 } from './secret-tokens.js';

export const SESSION_PREFIX = 'vr_session_';

export interface ActiveSession {
  sessionId: string;
  userId: string;
  email: string;
  kind: 'console' | 'cli';
  expiresAt: Date;
}

export async function createSession(
  sql: SqlClient, input: { userId: string; kind: 'console' | 'cli'; ttlMs: number },
): Promise<{ token: string; sessionId: string; expiresAt: Date }> {
  const token = randomToken(SESSION_PREFIX);
  const sessionId = crypto.randomUUID();
  const expiresAt = new Date(Date.now() + input.ttlMs);
  await sql.query(
    `INSERT INTO sessions (id, token_hash, user_id, kind, expires_at) VALUES ($1::uuid, $2, $3::uuid, $4, $5)`,
    [sessionId, sha256(token), input.userId, input.kind, expiresAt],
  );
  return { token, sessionId, expiresAt };
}

export async function findActiveSession(sql: SqlClient, token: string): Promise<ActiveSession | undefined> {
  if (!token.startsWith(SESSION_PREFIX)) return undefined;
  const rows = await sql.query<{ id: string; user_id: string; email: string; kind: 'console' | 'cli'; expires_at: Date | string }>(
    `SELECT s.id, s.user_id, u.email, s.kind, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
     WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > now()`,
    [sha256(token)],
    'ledger_find_session',
  );
  const row = rows[0];
  return row && { sessionId: row.id, userId: row.user_id, email: row.email, kind: row.kind, expiresAt: new Date(row.expires_at) };
}

/** True only when an active session was revoked by this call. */
export async function revokeSession(sql: SqlClient, token: string): Promise<boolean> {
  if (!token.startsWith(SESSION_PREFIX)) return false;
  const rows = await sql.query(
    `UPDATE sessions SET revoked_at = now() WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
    [sha256(token)],
  );
  return rows.length > 0;
}
