// Roles, invitations under invitation-only sign-up, member removal, key revocation by owners, and a
// user's own sessions, on PGlite (the same SQL runs on PostgreSQL in the end-to-end suites).
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import {
  addMember, createApiKey, createInvitation, createOrganization, createSession, createUser, findActiveApiKey, findActiveSession,
  findPendingInvitation, hashApiKey, listUserSessions, memberRole, removeMember, revokeAccountKey, revokeUserSession, revokeUserSessions,
} from './index.js';

const email = () => `${crypto.randomUUID()}@example.com`;

describe('access control (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
  });
  afterAll(() => database.close());

  async function organizationWithMember(options: { operatorManaged?: boolean } = {}) {
    const owner = await createUser(database.prisma, { email: email() });
    const member = await createUser(database.prisma, { email: email() });
    const { accountId } = await createOrganization(database.prisma, { name: 'org', ownerUserId: owner.userId, ...options });
    await addMember(database.prisma, { accountId, userId: member.userId });
    return { owner, member, accountId };
  }

  it('lets only owners of an organization invite', async () => {
    const { owner, member, accountId } = await organizationWithMember();
    const invite = (invitedByUserId: string, target = email(), on = accountId) =>
      createInvitation(database.sql, { accountId: on, email: target, invitedByUserId, newUsersAllowed: true });
    expect(await invite(member.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await invite(owner.userId, email(), owner.personalAccountId)).toEqual({ ok: false, reason: 'forbidden' });
    const stranger = await createUser(database.prisma, { email: email() });
    expect(await invite(stranger.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await invite(owner.userId)).toMatchObject({ ok: true, token: expect.stringMatching(/^vr_invite_/) });
    expect(await memberRole(database.sql, member.userId, accountId)).toBe('member');
    expect(await memberRole(database.sql, stranger.userId, accountId)).toBeUndefined();
  });

  it('with sign-up closed, invites new people only into operator-managed organizations', async () => {
    const made = await organizationWithMember();
    const existing = await createUser(database.prisma, { email: email() });
    const closed = (accountId: string, userId: string, target: string) =>
      createInvitation(database.sql, { accountId, email: target, invitedByUserId: userId, newUsersAllowed: false });
    expect(await closed(made.accountId, made.owner.userId, email())).toEqual({ ok: false, reason: 'signup_closed' });
    expect(await closed(made.accountId, made.owner.userId, existing.email.toUpperCase())).toMatchObject({ ok: true });

    const managed = await organizationWithMember({ operatorManaged: true });
    const invited = await closed(managed.accountId, managed.owner.userId, email());
    expect(invited.ok).toBe(true);
    if (!invited.ok) return;
    expect(await findPendingInvitation(database.sql, invited.token)).toMatchObject({ operatorManaged: true });
    const open = await createInvitation(database.sql, { accountId: made.accountId, email: email(), invitedByUserId: made.owner.userId, newUsersAllowed: true });
    expect(open.ok && (await findPendingInvitation(database.sql, open.token))).toMatchObject({ operatorManaged: false });
  });

  it('lets an owner remove a member, revoking the keys the member minted there', async () => {
    const { owner, member, accountId } = await organizationWithMember();
    const other = await createUser(database.prisma, { email: email() });
    await addMember(database.prisma, { accountId, userId: other.userId });
    const memberKey = await createApiKey(database.prisma, { accountId, name: 'm', createdByUserId: member.userId });
    const personalKey = await createApiKey(database.prisma, { accountId: member.personalAccountId, name: 'p', createdByUserId: member.userId });
    const ownerKey = await createApiKey(database.prisma, { accountId, name: 'o', createdByUserId: owner.userId });

    const remove = (actorUserId: string, memberUserId: string) => removeMember(database.sql, { accountId, actorUserId, memberUserId });
    expect(await remove(other.userId, member.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await remove(member.userId, owner.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await remove(owner.userId, owner.userId)).toEqual({ ok: false, reason: 'owner' });
    expect(await remove(owner.userId, crypto.randomUUID())).toEqual({ ok: false, reason: 'not_found' });
    expect(await remove(owner.userId, member.userId)).toEqual({ ok: true, revokedKeyHashes: [hashApiKey(memberKey.keyValue)] });
    expect(await memberRole(database.sql, member.userId, accountId)).toBeUndefined();
    expect(await findActiveApiKey(database.sql, hashApiKey(memberKey.keyValue))).toBeUndefined();
    expect(await findActiveApiKey(database.sql, hashApiKey(personalKey.keyValue))).toBeDefined();
    expect(await findActiveApiKey(database.sql, hashApiKey(ownerKey.keyValue))).toBeDefined();
    expect(await remove(owner.userId, member.userId)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('revokes a key for its minter or an owner; other members are refused, strangers learn nothing', async () => {
    const { owner, member, accountId } = await organizationWithMember();
    const second = await createUser(database.prisma, { email: email() });
    await addMember(database.prisma, { accountId, userId: second.userId });
    const stranger = await createUser(database.prisma, { email: email() });
    const mint = (userId: string | null) => createApiKey(database.prisma, { accountId, name: 'k', createdByUserId: userId });
    const [byMember, bySecond, byOperator] = [await mint(member.userId), await mint(second.userId), await mint(null)];
    const revoke = (keyId: string, userId: string) => revokeAccountKey(database.sql, { keyId, userId });

    expect(await revoke(bySecond.id, member.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await revoke(byOperator.id, member.userId)).toEqual({ ok: false, reason: 'forbidden' });
    expect(await revoke(bySecond.id, stranger.userId)).toEqual({ ok: false, reason: 'not_found' });
    expect(await revoke('not-a-uuid', owner.userId)).toEqual({ ok: false, reason: 'not_found' });
    expect(await revoke(byMember.id, member.userId)).toEqual({ ok: true, keyHash: hashApiKey(byMember.keyValue) });
    expect(await revoke(bySecond.id, owner.userId)).toEqual({ ok: true, keyHash: hashApiKey(bySecond.keyValue) });
    expect(await revoke(byOperator.id, owner.userId)).toMatchObject({ ok: true });
    expect(await revoke(bySecond.id, owner.userId)).toEqual({ ok: false, reason: 'not_found' });
  });

  it('lists, revokes one, and revokes all but one of a user\'s sessions; never someone else\'s', async () => {
    const user = await createUser(database.prisma, { email: email() });
    const other = await createUser(database.prisma, { email: email() });
    const consoleSession = await createSession(database.sql, { userId: user.userId, kind: 'console', ttlMs: 60_000 });
    const cliSessions = [
      await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 }),
      await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 }),
    ];
    await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: -1 });
    const othersSession = await createSession(database.sql, { userId: other.userId, kind: 'cli', ttlMs: 60_000 });

    const listed = await listUserSessions(database.sql, user.userId);
    expect(listed.map((session) => session.sessionId).sort()).toEqual([consoleSession, ...cliSessions].map((session) => session.sessionId).sort());
    expect(listed.find((session) => session.sessionId === consoleSession.sessionId)).toMatchObject({ kind: 'console', expiresAt: consoleSession.expiresAt });
    expect(JSON.stringify(listed)).not.toContain(consoleSession.token);

    expect(await revokeUserSession(database.sql, { userId: user.userId, sessionId: othersSession.sessionId })).toBe(false);
    expect(await findActiveSession(database.sql, othersSession.token)).toBeDefined();
    expect(await revokeUserSession(database.sql, { userId: user.userId, sessionId: 'nonsense' })).toBe(false);
    expect(await revokeUserSession(database.sql, { userId: user.userId, sessionId: cliSessions[0]!.sessionId })).toBe(true);
    expect(await findActiveSession(database.sql, cliSessions[0]!.token)).toBeUndefined();
    expect(await revokeUserSession(database.sql, { userId: user.userId, sessionId: cliSessions[0]!.sessionId })).toBe(false);

    expect(await revokeUserSessions(database.sql, { userId: user.userId, keepSessionId: consoleSession.sessionId })).toBe(1);
    expect((await listUserSessions(database.sql, user.userId)).map((session) => session.sessionId)).toEqual([consoleSession.sessionId]);
    expect(await revokeUserSessions(database.sql, { userId: user.userId })).toBe(1);
    expect(await listUserSessions(database.sql, user.userId)).toEqual([]);
    expect(await findActiveSession(database.sql, othersSession.token)).toBeDefined();
  });
});
