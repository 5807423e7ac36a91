// The control plane's side of the console: accounts, sessions, device approval, keys, wallet, usage
// and organizations, on top of the ledger. Every account-scoped call checks membership first.
import type { ConsoleServices, ConsoleAccount, ConsoleKey } from '@voice-router/console';
import {
  DuplicateEmailError, acceptInvitation, createApiKey, createInvitation, createOrganization, createSession, createUser,
  decideUserCode, findActiveSession, findLoginUser, findPendingInvitation, findAccountKey, getCredits, isMember, listAccountKeys,
  listActivity, listInvitations, listUserAccounts, lookUpUserCode, microsToNumber, revokeOwnKey, revokeSession,
  setPasswordHash, sha256, usageReport, type Database,
} from '@voice-router/ledger';
import { hashPassword, passwordProblem, verifyPassword } from '@voice-router/service-kit';
import { withKeyLimits, type KeyLimitDefaults } from '../key-limits.js';
import { createRateLimiter } from '../security/rate-limiter.js';

export interface ConsoleServiceOptions {
  database: Database;
  signupMode: 'open' | 'invite';
  onKeyRevoked(keyHash: string): void;
  keyLimitDefaults: KeyLimitDefaults;
}

const CONSOLE_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const forbidden = { ok: false as const, reason: 'forbidden' as const, message: 'You are not a member of that account.' };

export function csrfTokenFor(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

export function createConsoleServices(options: ConsoleServiceOptions): ConsoleServices {
  const { database } = options;
  const sql = database.sql;
  const loginByEmail = createRateLimiter({ limit: 10, windowMs: 15 * 60_000 });
  const loginByAddress = createRateLimiter({ limit: 100, windowMs: 15 * 60_000 });
  const signupByAddress = createRateLimiter({ limit: 20, windowMs: 60 * 60_000 });
  const codeGuesses = createRateLimiter({ limit: 10, windowMs: 15 * 60_000 });

  const toConsoleKey = (key: Awaited<ReturnType<typeof listAccountKeys>>[number], userId: string): ConsoleKey => ({
    ...withKeyLimits(key, options.keyLimitDefaults), revocableByMe: key.createdByUserId === userId,
  });

  return {
    signupOpen: () => options.signupMode === 'open',

    async signUp({ email, password, invitationToken, ip }) {
      const address = email.trim().toLowerCase();
      if (!signupByAddress.attempt(ip)) return { ok: false, reason: 'rate_limited', message: 'Too many sign-ups from this address; try again later.' };
      if (!EMAIL.test(address) || address.length > 254) return { ok: false, reason: 'invalid_email', message: 'Enter a valid email address.' };
      const problem = passwordProblem(password);
      if (problem) return { ok: false, reason: 'weak_password', message: problem };
      if (options.signupMode === 'invite') {
        const invitation = invitationToken ? await findPendingInvitation(sql, invitationToken) : undefined;
        if (!invitation || invitation.email !== address) {
          return { ok: false, reason: 'signup_closed', message: 'Sign-up is by invitation only on this deployment.' };
        }
      }
      // Nobody verifies email addresses here, so an existing user (even one an operator created without
      // a password) is never claimed by a sign-up: operators set passwords with `admin set-password`.
      if (await findLoginUser(sql, address)) return { ok: false, reason: 'email_taken', message: 'An account with this email exists. Log in instead.' };
      try {
        const { userId } = await createUser(database.prisma, { email: address });
        await setPasswordHash(sql, userId, await hashPassword(password));
        return { ok: true, user: { userId, email: address } };
      } catch (error) {
        if (error instanceof DuplicateEmailError) return { ok: false, reason: 'email_taken', message: 'An account with this email exists. Log in instead.' };
        throw error;
      }
    },

    async logIn({ email, password, ip }) {
      const address = email.trim().toLowerCase();
      if (!loginByEmail.attempt(address) || !loginByAddress.attempt(ip)) {
        return { ok: false, reason: 'rate_limited', message: 'Too many attempts; wait 15 minutes and try again.' };
      }
      const user = await findLoginUser(sql, address);
      if (!(await verifyPassword(password, user?.passwordHash ?? null)) || !user) {
        return { ok: false, reason: 'invalid_credentials', message: 'Wrong email or password.' };
      }
      loginByEmail.reset(address);
      return { ok: true, user: { userId: user.userId, email: user.email } };
    },

    async createSession(userId) {
      const created = await createSession(sql, { userId, kind: 'console', ttlMs: CONSOLE_SESSION_TTL_MS });
      const session = await findActiveSession(sql, created.token);
      return {
        token: created.token,
        session: { sessionId: created.sessionId, userId, email: session!.email, csrfToken: csrfTokenFor(created.token), expiresAt: created.expiresAt },
      };
    },

    async findSession(token) {
      const session = await findActiveSession(sql, token);
      if (!session || session.kind !== 'console') return undefined;
      return { sessionId: session.sessionId, userId: session.userId, email: session.email, csrfToken: csrfTokenFor(token), expiresAt: session.expiresAt };
    },

    async endSession(token) {
      await revokeSession(sql, token);
    },

    async lookUpDeviceCode({ userCode, userId }) {
      const result = await lookUpUserCode(sql, userCode);
      if (result.ok) return result;
      // Only wrong guesses count against the user, so a legitimate code always gets through.
      if (result.reason === 'not_found' && !codeGuesses.attempt(userId)) {
        return { ok: false, reason: 'rate_limited', message: 'Too many wrong codes; wait 15 minutes.' };
      }
      const messages = { not_found: 'No such code. Check it and try again.', expired: 'This code has expired. Run `vr login` again.', already_decided: 'This code was already used.' };
      return { ok: false, reason: result.reason, message: messages[result.reason] };
    },

    async decideDeviceCode(input) {
      const result = await decideUserCode(sql, input);
      if (result.ok) return result;
      const messages = { not_found: 'No such code.', expired: 'This code has expired.', already_decided: 'This code was already used.' };
      return { ok: false, reason: result.reason, message: messages[result.reason] };
    },

    listAccounts: (userId) => listUserAccounts(sql, userId) as Promise<ConsoleAccount[]>,

    async listKeys({ userId, accountId }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      return (await listAccountKeys(sql, accountId)).map((key) => toConsoleKey(key, userId));
    },

    async createKey({ userId, accountId, name, maxConcurrency, rateLimitPerMinute, dailySpendCapMicros, monthlySpendCapMicros }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      if (!name.trim() || name.length > 100) return { ok: false, reason: 'invalid', message: 'Give the key a name (at most 100 characters).' };
      const created = await createApiKey(database.prisma, {
        accountId, createdByUserId: userId, name: name.trim(), maxConcurrency, rateLimitPerMinute,
        dailySpendCapMicros: dailySpendCapMicros === undefined ? undefined : BigInt(dailySpendCapMicros),
        monthlySpendCapMicros: monthlySpendCapMicros === undefined ? undefined : BigInt(monthlySpendCapMicros),
      });
      const key = (await findAccountKey(sql, accountId, created.id))!;
      return { ok: true, key: toConsoleKey(key, userId), keyValue: created.keyValue };
    },

    async revokeKey({ userId, keyId }) {
      const keyHash = await revokeOwnKey(sql, { keyId, userId });
      if (!keyHash) return { ok: false, reason: 'not_found', message: 'No key with that id that you created.' };
      options.onKeyRevoked(keyHash);
      return { ok: true };
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
      if (!name.trim() || name.length > 100) return { ok: false, reason: 'invalid', message: 'Give the organization a name (at most 100 characters).' };
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
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      // Only a hash of each token is stored, so an old link cannot be shown again (link is empty).
      return (await listInvitations(sql, accountId)).map((invitation) => ({ ...invitation, link: '' }));
    },

    async invite({ userId, accountId, email, baseUrl }) {
      if (!(await isMember(sql, userId, accountId))) return forbidden;
      const address = email.trim().toLowerCase();
      if (!EMAIL.test(address)) return { ok: false, reason: 'invalid_email', message: 'Enter a valid email address.' };
      const { token, invitation } = await createInvitation(sql, { accountId, email: address, invitedByUserId: userId });
      return { ok: true, invitation: { ...invitation, link: `${baseUrl}/console/invitations/${token}` } };
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
