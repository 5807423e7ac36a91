// The sign-in limits' logic with small budgets: log-in limits count failures only (per email and per
// address), a wrong current password counts as a failed log-in, and wrong user codes count on the
// look-up and the approval step alike while right ones never do.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createDeviceCode, createInvitation, createOrganization, createSession, createUser, findActiveSession, openDatabase, setPasswordHash, type Database,
} from '@voice-router/ledger';
import { hashPassword } from '@voice-router/service-kit';
import type { AttemptLimiters } from '../security/attempt-limits.js';
import { createMemoryRateLimitStore } from '../security/rate-limiter.js';
import { createSignInServices, type SignInServices } from './sign-in-services.js';

const PASSWORD = 'correct horse battery';

describe('sign-in limits (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
  });
  afterAll(() => database.close());

  function services(budgets: { perEmail: number; perAddress: number; userCodes: number }): SignInServices {
    const store = createMemoryRateLimitStore();
    const window = { windowMs: 60_000 };
    const limits: AttemptLimiters = {
      loginFailuresPerEmail: store.limiter('email', { limit: budgets.perEmail, ...window }),
      loginFailuresPerAddress: store.limiter('address', { limit: budgets.perAddress, ...window }),
      signupsPerAddress: store.limiter('signup', { limit: 100, ...window }),
      wrongUserCodesPerUser: store.limiter('codes', { limit: budgets.userCodes, ...window }),
      deviceCodesPerAddress: store.limiter('device', { limit: 100, ...window }),
    };
    return createSignInServices({ database, signupMode: 'open', limits });
  }

  async function user(): Promise<{ userId: string; email: string }> {
    const created = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    await setPasswordHash(database.sql, created.userId, await hashPassword(PASSWORD));
    return created;
  }

  it('never counts successful log-ins, per email or per address', async () => {
    const signIn = services({ perEmail: 2, perAddress: 3, userCodes: 5 });
    const { email } = await user();
    for (let attempt = 0; attempt < 6; attempt += 1) {
      expect(await signIn.logIn({ email, password: PASSWORD, ip: '192.0.2.1' }), `log-in ${attempt + 1}`).toMatchObject({ ok: true });
    }
  });

  it('locks an email after its failures (the right password too), and a success clears its count', async () => {
    const signIn = services({ perEmail: 2, perAddress: 100, userCodes: 5 });
    const [first, second] = [await user(), await user()];
    expect(await signIn.logIn({ email: first.email, password: 'wrong', ip: '192.0.2.2' })).toMatchObject({ reason: 'invalid_credentials' });
    expect(await signIn.logIn({ email: first.email, password: PASSWORD, ip: '192.0.2.2' })).toMatchObject({ ok: true });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      expect(await signIn.logIn({ email: second.email, password: 'wrong', ip: `192.0.2.${10 + attempt}` })).toMatchObject({ reason: 'invalid_credentials' });
    }
    const locked = await signIn.logIn({ email: second.email, password: PASSWORD, ip: '192.0.2.20' });
    expect(locked).toMatchObject({ ok: false, reason: 'rate_limited' });
    expect(!locked.ok && locked.message).toMatch(/Too many failed attempts\. Try again in 1 minute/);
    expect(await signIn.logIn({ email: first.email, password: PASSWORD, ip: '192.0.2.20' })).toMatchObject({ ok: true });
  });

  it('locks an address spraying passwords across emails, not other addresses', async () => {
    const signIn = services({ perEmail: 100, perAddress: 3, userCodes: 5 });
    const victims = [await user(), await user(), await user(), await user()];
    for (const victim of victims.slice(0, 3)) {
      expect(await signIn.logIn({ email: victim.email, password: 'Summer2026!', ip: '198.51.100.1' })).toMatchObject({ reason: 'invalid_credentials' });
    }
    expect(await signIn.logIn({ email: victims[3]!.email, password: PASSWORD, ip: '198.51.100.1' })).toMatchObject({ reason: 'rate_limited' });
    expect(await signIn.logIn({ email: victims[3]!.email, password: PASSWORD, ip: '198.51.100.2' })).toMatchObject({ ok: true });
  });

  it('counts a wrong current password as a failed log-in, and a changed password ends the other sessions', async () => {
    const signIn = services({ perEmail: 2, perAddress: 100, userCodes: 5 });
    const { userId, email } = await user();
    const here = await signIn.createSession(userId);
    const elsewhere = await createSession(database.sql, { userId, kind: 'cli', ttlMs: 60_000 });
    const change = (currentPassword: string) =>
      signIn.changePassword({ userId, sessionId: here.session.sessionId, currentPassword, newPassword: 'a brand new password', ip: '192.0.2.30' });
    expect(await change('wrong')).toMatchObject({ reason: 'invalid_credentials' });
    expect(await change('wrong again')).toMatchObject({ reason: 'invalid_credentials' });
    expect(await change(PASSWORD)).toMatchObject({ reason: 'rate_limited' });
    expect(await signIn.logIn({ email, password: PASSWORD, ip: '192.0.2.31' })).toMatchObject({ reason: 'rate_limited' });

    const fresh = services({ perEmail: 2, perAddress: 100, userCodes: 5 });
    const changed = await fresh.changePassword({ userId, sessionId: here.session.sessionId, currentPassword: PASSWORD, newPassword: 'a brand new password', ip: '192.0.2.32' });
    expect(changed).toEqual({ ok: true, revokedCount: 1 });
    expect(await findActiveSession(database.sql, elsewhere.token)).toBeUndefined();
    expect(await fresh.findSession(here.token)).toMatchObject({ userId });
    expect(await fresh.logIn({ email, password: 'a brand new password', ip: '192.0.2.33' })).toMatchObject({ ok: true });
  });

  it('counts wrong user codes on the look-up and the approval step together; right codes never count', async () => {
    const signIn = services({ perEmail: 100, perAddress: 100, userCodes: 2 });
    const [guesser, honest] = [await user(), await user()];
    for (let attempt = 0; attempt < 4; attempt += 1) {
      const { userCode } = await createDeviceCode(database.sql, { ttlMs: 60_000 });
      expect(await signIn.lookUpDeviceCode({ userCode, userId: honest.userId, ip: 'x' })).toMatchObject({ ok: true });
      expect(await signIn.decideDeviceCode({ userCode, userId: honest.userId, decision: 'approve' })).toEqual({ ok: true });
    }
    const { userCode } = await createDeviceCode(database.sql, { ttlMs: 60_000 });
    expect(await signIn.lookUpDeviceCode({ userCode: 'BBBB-CCCD', userId: guesser.userId, ip: 'x' })).toMatchObject({ reason: 'not_found' });
    expect(await signIn.decideDeviceCode({ userCode: 'BBBB-CCCF', userId: guesser.userId, decision: 'approve' })).toMatchObject({ reason: 'not_found' });
    expect(await signIn.decideDeviceCode({ userCode, userId: guesser.userId, decision: 'approve' })).toMatchObject({ reason: 'rate_limited' });
    expect(await signIn.lookUpDeviceCode({ userCode, userId: guesser.userId, ip: 'x' })).toMatchObject({ reason: 'rate_limited' });
    expect(await signIn.decideDeviceCode({ userCode, userId: honest.userId, decision: 'deny' })).toEqual({ ok: true });
  });
});

describe('invitation-only sign-up (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
  });
  afterAll(() => database.close());

  it('admits a new person only with an invitation from an operator-made organization', async () => {
    const store = createMemoryRateLimitStore();
    const limiter = () => store.limiter(crypto.randomUUID(), { limit: 100, windowMs: 60_000 });
    const limits: AttemptLimiters = {
      loginFailuresPerEmail: limiter(), loginFailuresPerAddress: limiter(), signupsPerAddress: limiter(), wrongUserCodesPerUser: limiter(), deviceCodesPerAddress: limiter(),
    };
    const signIn = createSignInServices({ database, signupMode: 'invite', limits });
    const owner = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const selfMade = await createOrganization(database.prisma, { name: 'self-made', ownerUserId: owner.userId });
    const managed = await createOrganization(database.prisma, { name: 'managed', ownerUserId: owner.userId, operatorManaged: true });
    // An invitation a self-made organization issued while sign-up was still open.
    const early = await createInvitation(database.sql, { accountId: selfMade.accountId, email: 'early@example.com', invitedByUserId: owner.userId, newUsersAllowed: true });
    const proper = await createInvitation(database.sql, { accountId: managed.accountId, email: 'proper@example.com', invitedByUserId: owner.userId, newUsersAllowed: false });
    if (!early.ok || !proper.ok) throw new Error('invitations were not created');
    expect(await signIn.signUp({ email: 'early@example.com', password: PASSWORD, invitationToken: early.token, ip: 'x' })).toMatchObject({ reason: 'signup_closed' });
    expect(await signIn.signUp({ email: 'nobody@example.com', password: PASSWORD, ip: 'x' })).toMatchObject({ reason: 'signup_closed' });
    expect(await signIn.signUp({ email: 'other@example.com', password: PASSWORD, invitationToken: proper.token, ip: 'x' })).toMatchObject({ reason: 'signup_closed' });
    expect(await signIn.signUp({ email: 'proper@example.com', password: PASSWORD, invitationToken: proper.token, ip: 'x' })).toMatchObject({ ok: true });
  });
});
