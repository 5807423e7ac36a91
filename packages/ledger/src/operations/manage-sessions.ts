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

export interface SessionSummary {
  sessionId: string;
  kind: 'console' | 'cli';
  createdAt: Date;
  expiresAt: Date;
}

/** A user's active sessions, newest first (never their tokens: only hashes are stored). */
export async function listUserSessions(sql: SqlClient, userId: string): Promise<SessionSummary[]> {
  const rows = await sql.query<{ id: string; kind: 'console' | 'cli'; created_at: Date | string; expires_at: Date | string }>(
    `SELECT id, kind, created_at, expires_at FROM sessions
     WHERE user_id = $1::uuid AND revoked_at IS NULL AND expires_at > now() ORDER BY created_at DESC, id LIMIT 500`,
    [userId],
  );
  return rows.map((row) => ({ sessionId: row.id, kind: row.kind, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) }));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Revokes one of the user's own active sessions by id; false when there is no such session of theirs. */
export async function revokeUserSession(sql: SqlClient, input: { userId: string; sessionId: string }): Promise<boolean> {
  if (!UUID.test(input.sessionId)) return false;
  const rows = await sql.query(
    `UPDATE sessions SET revoked_at = now() WHERE id = $1::uuid AND user_id = $2::uuid AND revoked_at IS NULL AND expires_at > now() RETURNING id`,
    [input.sessionId, input.userId],
  );
  return rows.length > 0;
}

/** Revokes every active session of the user except `keepSessionId` (log out everywhere; a new password). */
export async function revokeUserSessions(sql: SqlClient, input: { userId: string; keepSessionId?: string }): Promise<number> {
  const rows = await sql.query(
    `UPDATE sessions SET revoked_at = now()
     WHERE user_id = $1::uuid AND revoked_at IS NULL AND expires_at > now() AND ($2::uuid IS NULL OR id <> $2::uuid) RETURNING id`,
    [input.userId, input.keepSessionId ?? null],
  );
  return rows.length;
}
