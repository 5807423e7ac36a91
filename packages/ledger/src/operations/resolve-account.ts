// Which account a signed-in user acts for. One organization: that one by default; several: the
// caller must name one (X-Organization-Id); none: the personal account. `personal` always picks it.
import type { SqlClient } from '../sql-client.js';

export interface UserAccount {
  accountId: string;
  kind: 'personal' | 'organization';
  name: string;
  role: 'owner' | 'member';
}

export async function listUserAccounts(sql: SqlClient, userId: string): Promise<UserAccount[]> {
  const rows = await sql.query<{ account_id: string; kind: 'personal' | 'organization'; name: string; role: 'owner' | 'member' }>(
    `SELECT a.id AS account_id, a.kind, a.name, m.role FROM memberships m JOIN accounts a ON a.id = m.account_id
     WHERE m.user_id = $1::uuid ORDER BY (a.kind = 'personal') DESC, a.created_at`,
    [userId],
    'ledger_list_user_accounts',
  );
  return rows.map((row) => ({ accountId: row.account_id, kind: row.kind, name: row.name, role: row.role }));
}

export type AccountResolution =
  | { ok: true; account: UserAccount }
  | { ok: false; code: 'organization_required' | 'forbidden'; details: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function resolveSessionAccount(sql: SqlClient, userId: string, organizationHeader: string | undefined): Promise<AccountResolution> {
  const accounts = await listUserAccounts(sql, userId);
  const personal = accounts.find((account) => account.kind === 'personal');
  const organizations = accounts.filter((account) => account.kind === 'organization');
  const wanted = organizationHeader?.trim();
  if (wanted) {
    if (wanted.toLowerCase() === 'personal' && personal) return { ok: true, account: personal };
    const match = UUID.test(wanted) ? accounts.find((account) => account.accountId === wanted.toLowerCase()) : undefined;
    if (match) return { ok: true, account: match };
    return { ok: false, code: 'forbidden', details: 'you are not a member of that organization' };
  }
  if (organizations.length === 1) return { ok: true, account: organizations[0]! };
  if (organizations.length > 1) {
    return { ok: false, code: 'organization_required', details: 'you belong to several organizations: send X-Organization-Id (an organization id, or "personal")' };
  }
  if (personal) return { ok: true, account: personal };
  return { ok: false, code: 'forbidden', details: 'this user has no account' };
}

export async function isMember(sql: SqlClient, userId: string, accountId: string): Promise<boolean> {
  if (!UUID.test(accountId)) return false;
  const rows = await sql.query(`SELECT 1 FROM memberships WHERE user_id = $1::uuid AND account_id = $2::uuid`, [userId, accountId]);
  return rows.length > 0;
}
