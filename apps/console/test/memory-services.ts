// An in-memory ConsoleServices: the control plane's behaviour in miniature (scrypt hashes, attempt
// limits, sessions with CSRF tokens, device codes, accounts, keys, wallets, usage, invitations), so
// route and browser tests exercise the console without a database. The real control plane is
// covered by the lead's end-to-end suite.
import { randomBytes, randomUUID, scryptSync, timingSafeEqual } from 'node:crypto';
import type {
  ConsoleAccount, ConsoleInvitation, ConsoleKey, ConsoleLedgerRow, ConsoleServices, ConsoleSession, ConsoleSessionSummary, ConsoleUsage, Failure,
} from '../src/console-services.js';

interface User { userId: string; email: string; salt: Buffer; hash: Buffer }
interface Account {
  accountId: string; kind: 'personal' | 'organization'; name: string; members: Map<string, 'owner' | 'member'>; balance: number; reserved: number;
  ledger: ConsoleLedgerRow[]; operatorManaged?: boolean;
}
type OwnKey = Omit<ConsoleKey, 'revocableByMe' | 'editableByMe' | 'effective'>;
interface StoredKey { key: OwnKey; accountId: string; creatorId: string; revoked: boolean; secret: string }
interface DeviceCode { userCode: string; expiresAt: Date; decision?: { userId: string; decision: 'approve' | 'deny' } }
interface Invitation { id: string; token: string; accountId: string; email: string; createdAt: string; acceptedAt: string | null }
interface Charge { id: string; accountId: string; provider: string; costMicros: number; at: Date; errorCode?: string }

const fail = <Reason extends string>(reason: Reason, message: string): Failure<Reason> => ({ ok: false, reason, message });
const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const token = () => randomBytes(24).toString('base64url');
/** What the real control plane shows for a key without its own limits (DEFAULT_KEY_LIMITS there). */
export const MEMORY_KEY_DEFAULTS = { maxConcurrency: 8, rateLimitPerMinute: 600 };
const effective = (key: OwnKey) => ({
  maxConcurrency: key.maxConcurrency ?? MEMORY_KEY_DEFAULTS.maxConcurrency,
  rateLimitPerMinute: key.rateLimitPerMinute ?? MEMORY_KEY_DEFAULTS.rateLimitPerMinute,
});

export class MemoryConsoleServices implements ConsoleServices {
  readonly users = new Map<string, User>();
  readonly accounts = new Map<string, Account>();
  readonly keys = new Map<string, StoredKey>();
  readonly deviceCodes = new Map<string, DeviceCode>();
  readonly invitations = new Map<string, Invitation>();
  readonly charges: Charge[] = [];
  private readonly sessions = new Map<string, ConsoleSession & { createdAt: Date }>();
  private readonly attempts = new Map<string, number>();
  signupIsOpen = true;
  /** Failed attempts allowed per bucket (log-in per email+ip, device codes per user) before refusing. */
  attemptLimit = 5;

  signupOpen(): boolean { return this.signupIsOpen; }

  async signUp(input: { email: string; password: string; invitationToken?: string; ip: string }) {
    const email = input.email.trim().toLowerCase();
    if (this.countAttempt(`signup:${input.ip}`) > 20) return fail('rate_limited', 'Too many sign-ups from this address. Try again later.');
    const invitation = input.invitationToken ? [...this.invitations.values()].find((entry) => entry.token === input.invitationToken) : undefined;
    const admits = invitation && invitation.email === email && !invitation.acceptedAt && this.accounts.get(invitation.accountId)?.operatorManaged;
    if (!this.signupIsOpen && !admits) return fail('signup_closed', 'Sign-up is by invitation only.');
    if (!emailPattern.test(email)) return fail('invalid_email', 'Enter a valid email address.');
    if (input.password.length < 10) return fail('weak_password', 'Use a password of at least 10 characters.');
    if (this.users.has(email)) return fail('email_taken', 'An account with this email already exists. Log in instead.');
    const salt = randomBytes(16);
    const user: User = { userId: randomUUID(), email, salt, hash: scryptSync(input.password, salt, 32, { N: 1024 }) };
    this.users.set(email, user);
    this.addAccount('personal', email, user.userId);
    return { ok: true as const, user: { userId: user.userId, email } };
  }

  async logIn(input: { email: string; password: string; ip: string }) {
    const email = input.email.trim().toLowerCase();
    const bucket = `login:${email}:${input.ip}`;
    if ((this.attempts.get(bucket) ?? 0) >= this.attemptLimit) return fail('rate_limited', 'Too many attempts. Wait a few minutes and try again.');
    const user = this.users.get(email);
    const hash = scryptSync(input.password, user?.salt ?? Buffer.alloc(16), 32, { N: 1024 });
    if (!user || !timingSafeEqual(hash, user.hash)) {
      this.countAttempt(bucket);
      return fail('invalid_credentials', 'Wrong email or password.');
    }
    this.attempts.delete(bucket);
    return { ok: true as const, user: { userId: user.userId, email } };
  }

  async createSession(userId: string) {
    const user = this.userById(userId);
    const session: ConsoleSession = { sessionId: randomUUID(), userId, email: user.email, csrfToken: token(), expiresAt: new Date(Date.now() + 7 * 86_400_000) };
    const value = token();
    this.sessions.set(value, { ...session, createdAt: new Date() });
    return { token: value, session };
  }
  async findSession(value: string) { return this.sessions.get(value); }
  async endSession(value: string) { this.sessions.delete(value); }

  async listSessions(input: { userId: string; currentSessionId: string }): Promise<ConsoleSessionSummary[]> {
    return [...this.sessions.values()].filter((session) => session.userId === input.userId).reverse().map((session) => ({
      sessionId: session.sessionId, kind: 'console' as const, createdAt: session.createdAt, expiresAt: session.expiresAt, current: session.sessionId === input.currentSessionId,
    }));
  }

  async revokeSession(input: { userId: string; sessionId: string }) {
    const entry = [...this.sessions].find(([, session]) => session.sessionId === input.sessionId && session.userId === input.userId);
    if (!entry) return fail('not_found', 'That session has already ended.');
    this.sessions.delete(entry[0]);
    return { ok: true as const };
  }

  async revokeAllSessions(input: { userId: string }) {
    return { revokedCount: this.endSessionsOf(input.userId) };
  }

  async changePassword(input: { userId: string; sessionId: string; currentPassword: string; newPassword: string; ip: string }) {
    const user = this.userById(input.userId);
    const bucket = `login:${user.email}:${input.ip}`;
    if ((this.attempts.get(bucket) ?? 0) >= this.attemptLimit) return fail('rate_limited', 'Too many attempts. Wait a few minutes and try again.');
    if (input.newPassword.length < 10) return fail('weak_password', 'Use a password of at least 10 characters.');
    if (!timingSafeEqual(scryptSync(input.currentPassword, user.salt, 32, { N: 1024 }), user.hash)) {
      this.countAttempt(bucket);
      return fail('invalid_credentials', 'The current password is wrong.');
    }
    user.hash = scryptSync(input.newPassword, user.salt, 32, { N: 1024 });
    return { ok: true as const, revokedCount: this.endSessionsOf(input.userId, input.sessionId) };
  }

  async lookUpDeviceCode(input: { userCode: string; userId: string; ip: string }) {
    const bucket = `device:${input.userId}`;
    if ((this.attempts.get(bucket) ?? 0) >= this.attemptLimit) return fail('rate_limited', 'Too many wrong codes. Wait a few minutes and try again.');
    const entry = this.deviceCodes.get(normalizeCode(input.userCode));
    if (!entry) {
      this.countAttempt(bucket);
      return fail('not_found', 'That code is not known. Check it against your terminal.');
    }
    if (entry.expiresAt.getTime() <= Date.now()) return fail('expired', 'That code has expired. Start again from your terminal.');
    if (entry.decision) return fail('already_decided', 'That code has already been used.');
    return { ok: true as const, userCode: entry.userCode, expiresAt: entry.expiresAt };
  }

  async decideDeviceCode(input: { userCode: string; userId: string; decision: 'approve' | 'deny' }) {
    const bucket = `device:${input.userId}`;
    if ((this.attempts.get(bucket) ?? 0) >= this.attemptLimit) return fail('rate_limited', 'Too many wrong codes. Wait a few minutes and try again.');
    const entry = this.deviceCodes.get(normalizeCode(input.userCode));
    if (!entry) {
      this.countAttempt(bucket);
      return fail('not_found', 'That code is not known. Check it against your terminal.');
    }
    if (entry.expiresAt.getTime() <= Date.now()) return fail('expired', 'That code has expired. Start again from your terminal.');
    if (entry.decision) return fail('already_decided', 'That code has already been used.');
    entry.decision = { userId: input.userId, decision: input.decision };
    return { ok: true as const };
  }

  async listAccounts(userId: string): Promise<ConsoleAccount[]> {
    const result = [...this.accounts.values()].filter((account) => account.members.has(userId)).map((account) => this.view(account, userId));
    return result.sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'personal' ? -1 : 1));
  }

  async listKeys(input: { userId: string; accountId: string }) {
    if (!this.memberOf(input)) return fail('forbidden', 'You are not a member of this account.');
    const owner = this.accounts.get(input.accountId)!.members.get(input.userId) === 'owner';
    return [...this.keys.values()].filter((entry) => entry.accountId === input.accountId && !entry.revoked)
      .map((entry) => ({ ...entry.key, effective: effective(entry.key), revocableByMe: entry.creatorId === input.userId || owner, editableByMe: owner || entry.creatorId === input.userId }));
  }

  async createKey(input: Parameters<ConsoleServices['createKey']>[0]) {
    if (!this.memberOf(input)) return fail('forbidden', 'You are not a member of this account.');
    if (!input.name.trim()) return fail('invalid', 'A key needs a name.');
    const secret = `pk_${token()}`;
    const key: OwnKey = {
      id: randomUUID(), name: input.name, keySuffix: secret.slice(-4), maxConcurrency: input.maxConcurrency ?? null,
      rateLimitPerMinute: input.rateLimitPerMinute ?? null, dailySpendCapMicros: input.dailySpendCapMicros ?? null,
      monthlySpendCapMicros: input.monthlySpendCapMicros ?? null, createdAt: new Date().toISOString(), createdBy: this.userById(input.userId).email,
    };
    this.keys.set(key.id, { key, accountId: input.accountId, creatorId: input.userId, revoked: false, secret });
    return { ok: true as const, key: { ...key, effective: effective(key), revocableByMe: true, editableByMe: true }, keyValue: secret };
  }

  async updateKey(input: Parameters<ConsoleServices['updateKey']>[0]) {
    const entry = this.keys.get(input.keyId);
    const account = this.memberOf(input);
    const allowed = entry && !entry.revoked && entry.accountId === input.accountId && account
      && (entry.creatorId === input.userId || account.members.get(input.userId) === 'owner');
    if (!allowed) return fail('not_found', 'No such key that you created or whose account you own.');
    Object.assign(entry.key, input.changes);
    return { ok: true as const, key: { ...entry.key, effective: effective(entry.key), revocableByMe: entry.creatorId === input.userId, editableByMe: true } };
  }

  async revokeKey(input: { userId: string; accountId: string; keyId: string }) {
    const entry = this.keys.get(input.keyId);
    const role = entry ? this.accounts.get(entry.accountId)!.members.get(input.userId) : undefined;
    if (!entry || entry.revoked || (entry.creatorId !== input.userId && !role)) return fail('not_found', 'No such key.');
    if (entry.creatorId !== input.userId && role !== 'owner') return fail('forbidden', 'Only the member who created a key or an owner can revoke it.');
    entry.revoked = true;
    return { ok: true as const };
  }

  async wallet(input: { userId: string; accountId: string }) {
    const account = this.memberOf(input);
    if (!account) return fail('forbidden', 'You are not a member of this account.');
    return { balanceMicros: account.balance, reservedMicros: account.reserved, activity: account.ledger.slice().reverse() };
  }

  async usage(input: { userId: string; accountId: string; days: number; limit: number }): Promise<ConsoleUsage | Failure<'forbidden'>> {
    if (!this.memberOf(input)) return fail('forbidden', 'You are not a member of this account.');
    const now = new Date();
    const since = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - (input.days - 1) * 86_400_000;
    const rows = this.charges.filter((charge) => charge.accountId === input.accountId && charge.at.getTime() >= since);
    const committed = rows.filter((row) => !row.errorCode);
    const byProvider = new Map<string, { provider: string; requests: number; costMicros: number }>();
    const byDay = new Map<string, { day: string; provider: string; costMicros: number; requests: number }>();
    const byErrorCode = new Map<string, number>();
    for (const row of rows) {
      if (row.errorCode) { byErrorCode.set(row.errorCode, (byErrorCode.get(row.errorCode) ?? 0) + 1); continue; }
      const provider = byProvider.get(row.provider) ?? { provider: row.provider, requests: 0, costMicros: 0 };
      provider.requests += 1; provider.costMicros += row.costMicros; byProvider.set(row.provider, provider);
      const day = row.at.toISOString().slice(0, 10);
      const cell = byDay.get(`${day}|${row.provider}`) ?? { day, provider: row.provider, costMicros: 0, requests: 0 };
      cell.requests += 1; cell.costMicros += row.costMicros; byDay.set(`${day}|${row.provider}`, cell);
    }
    return {
      totals: { requests: rows.length, costMicros: committed.reduce((sum, row) => sum + row.costMicros, 0), errorCount: rows.length - committed.length },
      byProvider: [...byProvider.values()],
      byErrorCode: [...byErrorCode].map(([code, count]) => ({ code, count })),
      byDay: [...byDay.values()].sort((a, b) => a.day.localeCompare(b.day)),
      recent: rows.slice(-input.limit).reverse().map((row) => ({
        id: row.id, createdAt: row.at.toISOString(), status: row.errorCode ? 'voided' as const : 'committed' as const, costMicros: row.errorCode ? 0 : row.costMicros,
      })),
    };
  }

  async createOrganization(input: { userId: string; name: string }) {
    const name = input.name.trim();
    if (!name || name.length > 100) return fail('invalid', 'An organization needs a name of 1 to 100 characters.');
    return { ok: true as const, account: this.view(this.addAccount('organization', name, input.userId), input.userId) };
  }

  async listMembers(input: { userId: string; accountId: string }) {
    const account = this.memberOf(input);
    if (!account) return fail('forbidden', 'You are not a member of this account.');
    return [...account.members].map(([userId, role]) => ({ userId, email: this.userById(userId).email, role }));
  }

  async listInvitations(input: { userId: string; accountId: string; baseUrl: string }) {
    if (this.memberOf(input)?.members.get(input.userId) !== 'owner') return fail('forbidden', 'Only owners see invitations.');
    return [...this.invitations.values()].filter((entry) => entry.accountId === input.accountId).map((entry) => this.invitationView(entry, input.baseUrl));
  }

  async invite(input: { userId: string; accountId: string; email: string; baseUrl: string }) {
    const account = this.memberOf(input);
    if (!account || account.kind !== 'organization' || account.members.get(input.userId) !== 'owner') return fail('forbidden', 'Only owners of an organization can invite.');
    const email = input.email.trim().toLowerCase();
    if (!emailPattern.test(email)) return fail('invalid_email', 'Enter a valid email address.');
    if (!this.signupIsOpen && !account.operatorManaged && !this.users.has(email)) return fail('signup_closed', 'Only operator-made organizations invite new people.');
    const invitation: Invitation = { id: randomUUID(), token: token(), accountId: account.accountId, email, createdAt: new Date().toISOString(), acceptedAt: null };
    this.invitations.set(invitation.id, invitation);
    return { ok: true as const, invitation: this.invitationView(invitation, input.baseUrl) };
  }

  async removeMember(input: { userId: string; accountId: string; memberUserId: string }) {
    const account = this.memberOf(input);
    if (!account || account.kind !== 'organization' || account.members.get(input.userId) !== 'owner') return fail('forbidden', 'Only owners can remove members.');
    const role = account.members.get(input.memberUserId);
    if (!role) return fail('not_found', 'Not a member.');
    if (role === 'owner') return fail('owner', 'Owners cannot be removed here.');
    account.members.delete(input.memberUserId);
    for (const entry of this.keys.values()) if (entry.accountId === account.accountId && entry.creatorId === input.memberUserId) entry.revoked = true;
    return { ok: true as const };
  }

  async acceptInvitation(input: { userId: string; token: string }) {
    const invitation = [...this.invitations.values()].find((entry) => entry.token === input.token);
    if (!invitation) return fail('not_found', 'This invitation does not exist.');
    if (invitation.acceptedAt) return fail('already_accepted', 'This invitation has already been accepted.');
    const user = this.userById(input.userId);
    if (user.email !== invitation.email) return fail('wrong_user', `This invitation was sent to another email address; you are logged in as ${user.email}.`);
    const account = this.accounts.get(invitation.accountId)!;
    account.members.set(user.userId, 'member');
    invitation.acceptedAt = new Date().toISOString();
    return { ok: true as const, account: this.view(account, user.userId) };
  }

  // Test helpers: what the CLI, the operator and the data plane would do.
  addDeviceCode(userCode: string, lifetimeMs = 600_000): void {
    this.deviceCodes.set(normalizeCode(userCode), { userCode, expiresAt: new Date(Date.now() + lifetimeMs) });
  }
  personalAccountOf(email: string): Account {
    const user = this.users.get(email.toLowerCase())!;
    return [...this.accounts.values()].find((account) => account.kind === 'personal' && account.members.has(user.userId))!;
  }
  grant(accountId: string, micros: number): void {
    const account = this.accounts.get(accountId)!;
    account.balance += micros;
    this.appendLedger(account, 'top-up', micros, null, 'admin', {});
  }
  /** A request through the data plane: reserve, then commit (or void when it failed). */
  charge(accountId: string, charge: { provider: string; costMicros: number; at?: Date; errorCode?: string }): void {
    const account = this.accounts.get(accountId)!;
    const id = randomUUID();
    this.appendLedger(account, 'reserve', 0, id, 'speech', { amountMicros: charge.costMicros });
    if (charge.errorCode) this.appendLedger(account, 'void', 0, id, 'speech', { amountMicros: charge.costMicros });
    else { account.balance -= charge.costMicros; this.appendLedger(account, 'commit', -charge.costMicros, id, 'speech', { provider: charge.provider }); }
    this.charges.push({ id, accountId, provider: charge.provider, costMicros: charge.costMicros, at: charge.at ?? new Date(), ...(charge.errorCode ? { errorCode: charge.errorCode } : {}) });
  }

  private endSessionsOf(userId: string, keepSessionId?: string): number {
    let count = 0;
    for (const [value, session] of this.sessions) {
      if (session.userId === userId && session.sessionId !== keepSessionId) {
        this.sessions.delete(value);
        count += 1;
      }
    }
    return count;
  }
  private addAccount(kind: Account['kind'], name: string, ownerId: string): Account {
    const account: Account = { accountId: randomUUID(), kind, name, members: new Map([[ownerId, 'owner']]), balance: 0, reserved: 0, ledger: [] };
    this.accounts.set(account.accountId, account);
    return account;
  }
  private appendLedger(account: Account, kind: ConsoleLedgerRow['kind'], delta: number, reservationId: string | null, source: string, metadata: Record<string, unknown>): void {
    account.ledger.push({ id: randomUUID(), kind, microsDelta: delta, microsBalanceAfter: account.balance, reservationId, source, metadata, createdAt: new Date().toISOString() });
  }
  private view(account: Account, userId: string): ConsoleAccount {
    return { accountId: account.accountId, kind: account.kind, name: account.name, role: account.members.get(userId) ?? 'member' };
  }
  private invitationView(entry: Invitation, baseUrl: string): ConsoleInvitation {
    return { id: entry.id, email: entry.email, link: `${baseUrl}/console/invitations/${entry.token}`, createdAt: entry.createdAt, acceptedAt: entry.acceptedAt };
  }
  private memberOf(input: { userId: string; accountId: string }): Account | undefined {
    const account = this.accounts.get(input.accountId);
    return account?.members.has(input.userId) ? account : undefined;
  }
  private userById(userId: string): User {
    const user = [...this.users.values()].find((entry) => entry.userId === userId);
    if (!user) throw new Error(`no user ${userId}`);
    return user;
  }
  private countAttempt(bucket: string): number {
    const count = (this.attempts.get(bucket) ?? 0) + 1;
    this.attempts.set(bucket, count);
    return count;
  }
}

function normalizeCode(code: string): string {
  return code.trim().toUpperCase().replace(/[^A-Z0-9]/g, '');
}
