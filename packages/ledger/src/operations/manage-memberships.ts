// Roles inside an account and removing members. Only an organization's owners manage its members; a
// removed member's keys for that organization are revoked with the membership (they know the secrets).
import type { SqlClient } from '../sql-client.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type MemberRole = 'owner' | 'member';

/** The user's role in the account, or undefined when they are not a member. */
export async function memberRole(sql: SqlClient, userId: string, accountId: string): Promise<MemberRole | undefined> {
  if (!UUID.test(userId) || !UUID.test(accountId)) return undefined;
  const [row] = await sql.query<{ role: MemberRole }>(
    `SELECT role FROM memberships WHERE user_id = $1::uuid AND account_id = $2::uuid`,
    [userId, accountId],
  );
  return row?.role;
}

export type RemoveMemberOutcome =
  | { ok: true; revokedKeyHashes: string[] }
  | { ok: false; reason: 'forbidden' | 'not_found' | 'owner' };

/**
 * Removes a plain member from an organization and revokes the keys they minted for it, in one
 * transaction. Only an owner of that organization may do it; owners themselves are not removed here
 * (an organization must keep its owner; an operator changes owners).
 */
export async function removeMember(
  sql: SqlClient, input: { accountId: string; actorUserId: string; memberUserId: string },
): Promise<RemoveMemberOutcome> {
  if (!UUID.test(input.accountId) || !UUID.test(input.memberUserId) || !UUID.test(input.actorUserId)) return { ok: false, reason: 'not_found' };
  return sql.transaction(async (transaction) => {
    const [actor] = await transaction.query<{ role: MemberRole; kind: string }>(
      `SELECT m.role, a.kind FROM memberships m JOIN accounts a ON a.id = m.account_id
       WHERE m.user_id = $1::uuid AND m.account_id = $2::uuid FOR UPDATE OF m`,
      [input.actorUserId, input.accountId],
    );
    if (!actor || actor.role !== 'owner' || actor.kind !== 'organization') return { ok: false, reason: 'forbidden' };
    const [member] = await transaction.query<{ role: MemberRole }>(
      `SELECT role FROM memberships WHERE user_id = $1::uuid AND account_id = $2::uuid FOR UPDATE`,
      [input.memberUserId, input.accountId],
    );
    if (!member) return { ok: false, reason: 'not_found' };
    if (member.role === 'owner') return { ok: false, reason: 'owner' };
    await transaction.query(`DELETE FROM memberships WHERE user_id = $1::uuid AND account_id = $2::uuid`, [input.memberUserId, input.accountId]);
    const revoked = await transaction.query<{ key_hash: string }>(
      `UPDATE api_keys SET revoked_at = now() WHERE account_id = $1::uuid AND created_by_user_id = $2::uuid AND revoked_at IS NULL RETURNING key_hash`,
      [input.accountId, input.memberUserId],
    );
    return { ok: true, revokedKeyHashes: revoked.map((row) => row.key_hash) };
  });
}
