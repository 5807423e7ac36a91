// Invitations to an organization: a link with a random token (hash stored), accepted by the invitee.
import crypto from 'node:crypto';
import type { SqlClient } from '../sql-client.js';
import { randomToken, sha256 } from './secret-tokens.js';

export interface InvitationRow {
  id: string;
  accountId: string;
  email: string;
  createdAt: string;
  acceptedAt: string | null;
}

const INVITATION_TTL_MS = 14 * 24 * 3600 * 1000;

export type CreateInvitationOutcome =
  | { ok: true; token: string; invitation: InvitationRow }
  | { ok: false; reason: 'forbidden' | 'signup_closed' };

/**
 * Only an owner of an organization invites. With invitation-only sign-up (`newUsersAllowed` false) an
 * invitation may add only people who already have a user, unless the organization is operator-managed
 * (`admin create-org`): otherwise anyone could create an organization and invite themselves new accounts.
 */
export async function createInvitation(
  sql: SqlClient, input: { accountId: string; email: string; invitedByUserId: string; newUsersAllowed: boolean },
): Promise<CreateInvitationOutcome> {
  const email = input.email.trim().toLowerCase();
  const [inviter] = await sql.query<{ role: string; kind: string; operator_managed: boolean; invitee_exists: boolean }>(
    `SELECT m.role, a.kind, a.operator_managed, EXISTS (SELECT 1 FROM users WHERE email = $3) AS invitee_exists
     FROM memberships m JOIN accounts a ON a.id = m.account_id WHERE m.user_id = $1::uuid AND m.account_id = $2::uuid`,
    [input.invitedByUserId, input.accountId, email],
  );
  if (!inviter || inviter.role !== 'owner' || inviter.kind !== 'organization') return { ok: false, reason: 'forbidden' };
  if (!input.newUsersAllowed && !inviter.operator_managed && !inviter.invitee_exists) return { ok: false, reason: 'signup_closed' };
  const token = randomToken('vr_invite_', 24);
  const id = crypto.randomUUID();
  const [row] = await sql.query<{ created_at: Date | string }>(
    `INSERT INTO invitations (id, account_id, email, token_hash, invited_by_user_id, expires_at)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5::uuid, $6) RETURNING created_at`,
    [id, input.accountId, email, sha256(token), input.invitedByUserId, new Date(Date.now() + INVITATION_TTL_MS)],
  );
  return { ok: true, token, invitation: { id, accountId: input.accountId, email, createdAt: new Date(row!.created_at).toISOString(), acceptedAt: null } };
}

export async function listInvitations(sql: SqlClient, accountId: string): Promise<InvitationRow[]> {
  const rows = await sql.query<{ id: string; email: string; created_at: Date | string; accepted_at: Date | string | null }>(
    `SELECT id, email, created_at, accepted_at FROM invitations WHERE account_id = $1::uuid ORDER BY created_at DESC LIMIT 200`,
    [accountId],
  );
  return rows.map((row) => ({
    id: row.id, accountId, email: row.email, createdAt: new Date(row.created_at).toISOString(),
    acceptedAt: row.accepted_at ? new Date(row.accepted_at).toISOString() : null,
  }));
}

export type AcceptOutcome = { ok: true; accountId: string } | { ok: false; reason: 'not_found' | 'wrong_user' | 'already_accepted' };

/** The invitation's email must match the accepting user's; accepting adds a member. */
export async function acceptInvitation(sql: SqlClient, input: { token: string; userId: string; email: string }): Promise<AcceptOutcome> {
  return sql.transaction(async (transaction) => {
    const [row] = await transaction.query<{ id: string; account_id: string; email: string; accepted_at: unknown; expired: boolean }>(
      `SELECT id, account_id, email, accepted_at, expires_at <= now() AS expired FROM invitations WHERE token_hash = $1 FOR UPDATE`,
      [sha256(input.token)],
    );
    if (!row || row.expired) return { ok: false, reason: 'not_found' };
    if (row.accepted_at) return { ok: false, reason: 'already_accepted' };
    if (row.email !== input.email.trim().toLowerCase()) return { ok: false, reason: 'wrong_user' };
    await transaction.query(`UPDATE invitations SET accepted_at = now() WHERE id = $1::uuid`, [row.id]);
    await transaction.query(
      `INSERT INTO memberships (user_id, account_id, role) VALUES ($1::uuid, $2::uuid, 'member') ON CONFLICT DO NOTHING`,
      [input.userId, row.account_id],
    );
    return { ok: true, accountId: row.account_id };
  });
}

/**
 * For invitation-only sign-up: a pending invitation, by token, and whether its organization is
 * operator-managed (only those invitations let someone new sign up when sign-up is closed).
 */
export async function findPendingInvitation(sql: SqlClient, token: string): Promise<{ email: string; operatorManaged: boolean } | undefined> {
  const [row] = await sql.query<{ email: string; operator_managed: boolean }>(
    `SELECT i.email, a.operator_managed FROM invitations i JOIN accounts a ON a.id = i.account_id
     WHERE i.token_hash = $1 AND i.accepted_at IS NULL AND i.expires_at > now()`,
    [sha256(token)],
  );
  return row && { email: row.email, operatorManaged: row.operator_managed };
}
