// Device-code login (RFC 8628): a CLI asks for a code pair, a signed-in user approves the short user
// code in the console, and the CLI's next poll exchanges the device code for one session token.
import crypto from 'node:crypto';
import type { SqlClient } from '../sql-client.js';
import { createSession } from './manage-sessions.js';
import { randomToken, sha256 } from './secret-tokens.js';

// No vowels (no words), no 0/O/1/I lookalikes: 20 letters, 8 of them ≈ 2.6e10 codes for a 10-minute window.
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';

export function generateUserCode(): string {
  const letters = Array.from({ length: 8 }, () => USER_CODE_ALPHABET[crypto.randomInt(USER_CODE_ALPHABET.length)]);
  return `${letters.slice(0, 4).join('')}-${letters.slice(4).join('')}`;
}

/** Accepts what people type: any case, with or without the dash or spaces. */
export function normaliseUserCode(input: string): string | undefined {
  const letters = input.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== 8 || [...letters].some((letter) => !USER_CODE_ALPHABET.includes(letter))) return undefined;
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

export async function createDeviceCode(sql: SqlClient, input: { ttlMs: number }): Promise<{ deviceCode: string; userCode: string; expiresAt: Date }> {
  const expiresAt = new Date(Date.now() + input.ttlMs);
  // Expired codes are dead weight and could collide with a new user code.
  await sql.query(`DELETE FROM device_codes WHERE expires_at < now() - interval '1 day'`);
  for (let attempt = 0; ; attempt += 1) {
    const deviceCode = randomToken('vr_device_');
    const userCode = generateUserCode();
    try {
      await sql.query(
        `INSERT INTO device_codes (id, device_code_hash, user_code_hash, expires_at) VALUES ($1::uuid, $2, $3, $4)`,
        [crypto.randomUUID(), sha256(deviceCode), sha256(userCode), expiresAt],
      );
      return { deviceCode, userCode, expiresAt };
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

export type PollOutcome =
  | { status: 'approved'; sessionToken: string; expiresAt: Date; userId: string }
  | { status: 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token' | 'invalid_device_code' };

export async function pollDeviceCode(
  sql: SqlClient, input: { deviceCode: string; minimumIntervalMs: number; sessionTtlMs: number },
): Promise<PollOutcome> {
  return sql.transaction(async (transaction) => {
    const [row] = await transaction.query<{ id: string; status: string; user_id: string | null; expired: boolean; too_soon: boolean }>(
      `SELECT id, status, user_id, expires_at <= now() AS expired,
              coalesce(last_polled_at > now() - make_interval(secs => $2::double precision / 1000), false) AS too_soon
       FROM device_codes WHERE device_code_hash = $1 FOR UPDATE`,
      [sha256(input.deviceCode), input.minimumIntervalMs],
    );
    if (!row) return { status: 'invalid_device_code' };
    // One token per device code: a consumed code answers like an expired one.
    if (row.status === 'consumed' || row.expired) return { status: 'expired_token' };
    await transaction.query(`UPDATE device_codes SET last_polled_at = now() WHERE id = $1::uuid`, [row.id]);
    if (row.status === 'denied') return { status: 'access_denied' };
    if (row.status === 'pending') return { status: row.too_soon ? 'slow_down' : 'authorization_pending' };
    const session = await createSession(transaction, { userId: row.user_id!, kind: 'cli', ttlMs: input.sessionTtlMs });
    await transaction.query(`UPDATE device_codes SET status = 'consumed' WHERE id = $1::uuid`, [row.id]);
    return { status: 'approved', sessionToken: session.token, expiresAt: session.expiresAt, userId: row.user_id! };
  });
}

export type UserCodeLookup = { ok: true; userCode: string; expiresAt: Date } | { ok: false; reason: 'not_found' | 'expired' | 'already_decided' };

export async function lookUpUserCode(sql: SqlClient, userCodeInput: string): Promise<UserCodeLookup> {
  const userCode = normaliseUserCode(userCodeInput);
  if (!userCode) return { ok: false, reason: 'not_found' };
  const [row] = await sql.query<{ status: string; expires_at: Date | string }>(
    `SELECT status, expires_at FROM device_codes WHERE user_code_hash = $1`,
    [sha256(userCode)],
  );
  if (!row) return { ok: false, reason: 'not_found' };
  if (new Date(row.expires_at) <= new Date()) return { ok: false, reason: 'expired' };
  if (row.status !== 'pending') return { ok: false, reason: 'already_decided' };
  return { ok: true, userCode, expiresAt: new Date(row.expires_at) };
}

export async function decideUserCode(
  sql: SqlClient, input: { userCode: string; userId: string; decision: 'approve' | 'deny' },
): Promise<{ ok: true } | { ok: false; reason: 'not_found' | 'expired' | 'already_decided' }> {
  const lookup = await lookUpUserCode(sql, input.userCode);
  if (!lookup.ok) return lookup;
  const rows = await sql.query(
    `UPDATE device_codes SET status = $2, user_id = $3::uuid, decided_at = now()
     WHERE user_code_hash = $1 AND status = 'pending' AND expires_at > now() RETURNING id`,
    [sha256(lookup.userCode), input.decision === 'approve' ? 'approved' : 'denied', input.userId],
  );
  return rows.length ? { ok: true } : { ok: false, reason: 'already_decided' };
}
