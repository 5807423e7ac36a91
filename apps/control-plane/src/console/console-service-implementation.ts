// The control plane's side of the console: accounts, keys, wallet, usage and organizations on top of
// the ledger (sign-in, sessions and device approval are in sign-in-services.ts). Every account-scoped
// call checks membership first; managing members and other members' keys needs the owner role.
import type { ConsoleServices, ConsoleAccount, ConsoleKey } from '@voice-router/console';
import {
  acceptInvitation, createApiKey, createInvitation, createOrganization, findAccountKey, getCredits, isMember, listAccountKeys,
  listActivity, listInvitations, listUserAccounts, memberRole, microsToNumber, removeMember, revokeAccountKey, updateApiKey, usageReport,
  type Database,
} from '@voice-router/ledger';
import { effectiveLimits, type KeyLimitDefaults } from '../key-limits.js';
import type { AttemptLimiters } from '../security/attempt-limits.js';
import { createSignInServices } from './sign-in-services.js';
import type { Billing } from '../billing/billing.js';
import { createConsoleBilling } from './console-billing.js';

export interface ConsoleServiceOptions {
  database: Database;
  signupMode: 'open' | 'invite';
  /** Called with a revoked or changed key's hash (a data plane in this process drops it from its cache). */
  onKeyRevoked(keyHash: string): void;
  limits: AttemptLimiters;
  keyLimitDefaults: KeyLimitDefaults;
  billing?: Billing;
  /** Logs a payment-processor failure behind a console page (its class and status, never Stripe's text). */
  onBillingFailure?(failure: { operation: string; errorClass: string; statusCode?: number }): void;
  publicBaseUrl?: string;
}

const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;
/** A name people typed: not blank, at most 100 characters, no control characters (PostgreSQL text cannot hold NUL). */
const badName = (name: string) => !name.trim() || name.length > 100 || /[\u0000-\u001f\u007f]/.test(name);
const forbidden = { ok: false as const, reason: 'forbidden' as const, message: 'You are not a member of that account.' };

export function createConsoleServices(options: ConsoleServiceOptions): ConsoleServices {
  const { database } = options;
  const sql = database.sql;

  const toConsoleKey = (key: Awaited<ReturnType<typeof listAccountKeys>>[number], userId: string, role: string | undefined): ConsoleKey => ({
    ...key, effective: effectiveLimits(key, options.keyLimitDefaults),
    revocableByMe: key.createdByUserId === userId || role === 'owner', editableByMe: key.createdByUserId === userId || role === 'owner',
  });

  const billing = options.billing && createConsoleBilling(database, options.billing, (error) => {
    options.onBillingFailure?.({ operation: error.operation, errorClass: error.stripeErrorClass, statusCode: error.statusCode });
  });

  return {
    ...(billing ? { billing } : {}),
    ...createSignInServices(options),

    listAccounts: (userId) => listUserAccounts(sql, userId) as Promise<ConsoleAccount[]>,

    async listKeys({ userId, accountId }) {
      const role = await memberRole(sql, userId, accountId);
      if (!role) return forbidden;
      return (await listAccountKeys(sql, accountId)).map((key) => toConsoleKey(key, userId, role));
    },

    async createKey({ userId, accountId, name, maxConcurrency, rateLimitPerMinute, dailySpendCapMicros, monthlySpendCapMicros }) {
      const role = await memberRole(sql, userId, accountId);
      if (!role) return forbidden;
      if (badName(name)) return { ok: false, reason: 'invalid', message: 'Give the key a name (at most 100 characters, no control characters).' };
      const created = await createApiKey(database.prisma, {
        accountId, createdByUserId: userId, name: name.trim(), maxConcurrency, rateLimitPerMinute,
        dailySpendCapMicros: dailySpendCapMicros === undefined ? undefined : BigInt(dailySpendCapMicros),
        monthlySpendCapMicros: monthlySpendCapMicros === undefined ? undefined : BigInt(monthlySpendCapMicros),
      });
      const key = (await findAccountKey(sql, accountId, created.id))!;
      return { ok: true, key: toConsoleKey(key, userId, role), keyValue: created.keyValue };
    },

    async revokeKey({ userId, keyId }) {
      const outcome = await revokeAccountKey(sql, { keyId, userId });
      if (!outcome.ok && outcome.reason === 'forbidden') {
        return { ok: false, reason: 'forbidden', message: 'Only the member who created a key or an owner of the organization can revoke it.' };
      }
      if (!outcome.ok) return { ok: false, reason: 'not_found', message: 'No such key.' };
      options.onKeyRevoked(outcome.keyHash);
      return { ok: true };
    },

    async updateKey({ userId, accountId, keyId, changes }) {
      if (badName(changes.name)) return { ok: false, reason: 'invalid', message: 'Give the key a name (at most 100 characters, no control characters).' };
      const notFound = { ok: false as const, reason: 'not_found' as const, message: 'No such key that you created or whose account you own.' };
      const micros = (value: number | null) => (value === null ? null : BigInt(value));
      const updated = await updateApiKey(sql, {
        keyId, userId,
        changes: {
          name: changes.name.trim(), maxConcurrency: changes.maxConcurrency, rateLimitPerMinute: changes.rateLimitPerMinute,
          dailySpendCapMicros: micros(changes.dailySpendCapMicros), monthlySpendCapMicros: micros(changes.monthlySpendCapMicros),
        },
      });
      if (!updated || updated.accountId !== accountId) return notFound;
      options.onKeyRevoked(updated.keyHash);
      const key = (await findAccountKey(sql, accountId, keyId))!;
      return { ok: true, key: toConsoleKey(key, userId, await memberRole(sql, userId, accountId)) };
    },

    async wallet({ userId, accountId }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      const credits = await getCredits(sql, accountId);
      const rows = await listActivity(sql, accountId, 100);
      return {
        balanceMicros: microsToNumber(credits?.balanceMicros ?? 0n),
        reservedMicros: microsToNumber(credits?.reservedMicros ?? 0n),
        activity: rows.map((row) => ({
          ...row, microsDelta: microsToNumber(row.microsDelta), microsBalanceAfter: microsToNumber(row.microsBalanceAfter), createdAt: row.createdAt.toISOString(),
        })),
      };
    },

    async usage({ userId, accountId, days, limit }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return usageReport(sql, { accountId, days, limit });
    },

    async createOrganization({ userId, name }) {
      if (badName(name)) return { ok: false, reason: 'invalid', message: 'Give the organization a name (at most 100 characters, no control characters).' };
      const { accountId } = await createOrganization(database.prisma, { name: name.trim(), ownerUserId: userId });
      return { ok: true, account: { accountId, kind: 'organization', name: name.trim(), role: 'owner' } };
    },

    async listMembers({ userId, accountId }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return sql.query(
        `SELECT u.id AS "userId", u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1::uuid ORDER BY m.created_at`,
        [accountId],
      );
    },

    async listInvitations({ userId, accountId }) {
      // Invitations are the owners' business (only they invite).
      if ((await memberRole(sql, userId, accountId)) !== 'owner') return forbidden;
      // Only a hash of each token is stored, so an old link cannot be shown again (link is empty).
      return (await listInvitations(sql, accountId)).map((invitation) => ({ ...invitation, link: '' }));
    },

    async invite({ userId, accountId, email, baseUrl }) {
      const address = email.trim().toLowerCase();
      if (!EMAIL.test(address) || address.length > 254) return { ok: false, reason: 'invalid_email', message: 'Enter a valid email address.' };
      const created = await createInvitation(sql, { accountId, email: address, invitedByUserId: userId, newUsersAllowed: options.signupMode === 'open' });
      if (!created.ok && created.reason === 'forbidden') return { ok: false, reason: 'forbidden', message: 'Only owners of an organization can invite members.' };
      if (!created.ok) {
        return {
          ok: false, reason: 'signup_closed',
          message: `Sign-up is by invitation only here, and ${address} has no account yet: only organizations created by the operator can invite new people. Ask the operator to create the user first.`,
        };
      }
      return { ok: true, invitation: { ...created.invitation, link: `${baseUrl}/console/invitations/${created.token}` } };
    },

    async removeMember({ userId, accountId, memberUserId }) {
      const outcome = await removeMember(sql, { accountId, actorUserId: userId, memberUserId });
      if (outcome.ok) {
        for (const keyHash of outcome.revokedKeyHashes) options.onKeyRevoked(keyHash);
        return { ok: true };
      }
      const messages = {
        forbidden: 'Only owners of an organization can remove members.',
        not_found: 'That person is not a member of this organization.',
        owner: 'Owners cannot be removed here; ask the operator.',
      };
      return { ok: false, reason: outcome.reason, message: messages[outcome.reason] };
    },

    async acceptInvitation({ userId, token }) {
      const user = (await sql.query<{ email: string }>(`SELECT email FROM users WHERE id = $1::uuid`, [userId]))[0];
      const result = await acceptInvitation(sql, { token, userId, email: user?.email ?? '' });
      if (!result.ok) {
        const messages = {
          not_found: 'This invitation does not exist or has expired.',
          wrong_user: 'This invitation was sent to another email address. Log in as that user.',
          already_accepted: 'This invitation was already accepted.',
        };
        return { ok: false, reason: result.reason, message: messages[result.reason] };
      }
      const account = (await listUserAccounts(sql, userId)).find((candidate) => candidate.accountId === result.accountId)!;
      return { ok: true, account };
    },
  };
}
