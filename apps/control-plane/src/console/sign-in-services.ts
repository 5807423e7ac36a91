// The console's sign-in half: sign-up, log-in, console sessions, device approval, the user's sessions
// and password changes, with the attempt limits of security/attempt-limits.ts.
import type { ConsoleServices } from '@voice-router/console';
import {
  DuplicateEmailError, createSession, createUser, decideUserCode, findActiveSession, findLoginUser, findPendingInvitation,
  listUserSessions, lookUpUserCode, revokeSession, revokeUserSession, revokeUserSessions, setPasswordHash, sha256, type Database,
} from '@voice-router/ledger';
import { hashPassword, passwordProblem, verifyPassword } from '@voice-router/service-kit';
import type { AttemptLimiters } from '../security/attempt-limits.js';
import type { LimitDecision } from '../security/rate-limiter.js';

export type SignInServices = Pick<ConsoleServices,
  'signupOpen' | 'signUp' | 'logIn' | 'createSession' | 'findSession' | 'endSession' | 'lookUpDeviceCode' | 'decideDeviceCode'
  | 'listSessions' | 'revokeSession' | 'revokeAllSessions' | 'changePassword'>;

const CONSOLE_SESSION_TTL_MS = 7 * 24 * 3600 * 1000;
const EMAIL = /^[^\s@\u0000-\u001f\u007f]+@[^\s@\u0000-\u001f\u007f]+\.[^\s@\u0000-\u001f\u007f]+$/;
const wait = (decision: LimitDecision) => (decision.allowed ? '' : ` Try again in ${Math.ceil(decision.retryAfterSeconds / 60)} minute(s).`);

export function csrfTokenFor(sessionToken: string): string {
  return sha256(`csrf:${sessionToken}`);
}

export function createSignInServices(options: { database: Database; signupMode: 'open' | 'invite'; limits: AttemptLimiters }): SignInServices {
  const { database, limits } = options;
  const sql = database.sql;

  /**
   * Counts a failed log-in (or a wrong current password) against the email and the address. Taken
   * before the password is checked, so parallel guesses cannot overshoot; given back on success.
   */
  async function passwordAttempt(address: string, ip: string, check: () => Promise<boolean>): Promise<'ok' | 'failed' | LimitDecision> {
    const [byEmail, byAddress] = [await limits.loginFailuresPerEmail.take(address), await limits.loginFailuresPerAddress.take(ip)];
    if (!byEmail.allowed || !byAddress.allowed) {
      if (byEmail.allowed) await limits.loginFailuresPerEmail.giveBack(address);
      if (byAddress.allowed) await limits.loginFailuresPerAddress.giveBack(ip);
      return byEmail.allowed ? byAddress : byEmail;
    }
    if (!(await check())) return 'failed';
    await limits.loginFailuresPerEmail.reset(address);
    await limits.loginFailuresPerAddress.giveBack(ip);
    return 'ok';
  }

  /** Wrong user codes (look-up and approval alike) count against the user; right ones are given back. */
  async function guardUserCode<Result extends { ok: boolean; reason?: string }>(userId: string, work: () => Promise<Result>) {
    const decision = await limits.wrongUserCodesPerUser.take(userId);
    if (!decision.allowed) return { ok: false as const, reason: 'rate_limited' as const, message: `Too many wrong codes.${wait(decision)}` };
    const result = await work();
    if (result.ok || result.reason !== 'not_found') await limits.wrongUserCodesPerUser.giveBack(userId);
    return result;
  }

  return {
    signupOpen: () => options.signupMode === 'open',

    async signUp({ email, password, invitationToken, ip }) {
      const address = email.trim().toLowerCase();
      const decision = await limits.signupsPerAddress.take(ip);
      if (!decision.allowed) return { ok: false, reason: 'rate_limited', message: `Too many sign-ups from this address.${wait(decision)}` };
      if (!EMAIL.test(address) || address.length > 254) return { ok: false, reason: 'invalid_email', message: 'Enter a valid email address.' };
      const problem = passwordProblem(password);
      if (problem) return { ok: false, reason: 'weak_password', message: problem };
      if (options.signupMode === 'invite') {
        // Only invitations from operator-made organizations admit someone new (see createInvitation).
        const invitation = invitationToken ? await findPendingInvitation(sql, invitationToken) : undefined;
        if (!invitation || invitation.email !== address || !invitation.operatorManaged) {
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
      // An address with control characters matches nobody (and PostgreSQL text cannot hold NUL).
      const user = /[\u0000-\u001f\u007f]/.test(address) ? undefined : await findLoginUser(sql, address);
      const outcome = await passwordAttempt(address, ip, async () => (await verifyPassword(password, user?.passwordHash ?? null)) && Boolean(user));
      if (typeof outcome === 'object') return { ok: false, reason: 'rate_limited', message: `Too many failed attempts.${wait(outcome)}` };
      if (outcome === 'failed' || !user) return { ok: false, reason: 'invalid_credentials', message: 'Wrong email or password.' };
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
      const result = await guardUserCode(userId, () => lookUpUserCode(sql, userCode));
      if (result.ok || result.reason === 'rate_limited') return result;
      const messages = { not_found: 'No such code. Check it and try again.', expired: 'This code has expired. Run `vr login` again.', already_decided: 'This code was already used.' };
      return { ok: false, reason: result.reason, message: messages[result.reason] };
    },

    async decideDeviceCode(input) {
      const result = await guardUserCode(input.userId, () => decideUserCode(sql, input));
      if (result.ok || result.reason === 'rate_limited') return result;
      const messages = { not_found: 'No such code.', expired: 'This code has expired.', already_decided: 'This code was already used.' };
      return { ok: false, reason: result.reason, message: messages[result.reason] };
    },

    async listSessions({ userId, currentSessionId }) {
      return (await listUserSessions(sql, userId)).map((session) => ({ ...session, current: session.sessionId === currentSessionId }));
    },

    async revokeSession({ userId, sessionId }) {
      if (await revokeUserSession(sql, { userId, sessionId })) return { ok: true };
      return { ok: false, reason: 'not_found', message: 'That session has already ended.' };
    },

    async revokeAllSessions({ userId }) {
      return { revokedCount: await revokeUserSessions(sql, { userId }) };
    },

    async changePassword({ userId, sessionId, currentPassword, newPassword, ip }) {
      const user = (await sql.query<{ email: string; password_hash: string | null }>(`SELECT email, password_hash FROM users WHERE id = $1::uuid`, [userId]))[0];
      if (!user) return { ok: false, reason: 'invalid_credentials', message: 'The current password is wrong.' };
      const problem = passwordProblem(newPassword);
      if (problem) return { ok: false, reason: 'weak_password', message: problem };
      const outcome = await passwordAttempt(user.email, ip, () => verifyPassword(currentPassword, user.password_hash));
      if (typeof outcome === 'object') return { ok: false, reason: 'rate_limited', message: `Too many failed attempts.${wait(outcome)}` };
      if (outcome === 'failed') return { ok: false, reason: 'invalid_credentials', message: 'The current password is wrong.' };
      await setPasswordHash(sql, userId, await hashPassword(newPassword));
      // Whoever knew the old password may hold other sessions: end them all but this one.
      return { ok: true, revokedCount: await revokeUserSessions(sql, { userId, keepSessionId: sessionId }) };
    },
  };
}
