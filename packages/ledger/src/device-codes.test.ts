import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import {
  createDeviceCode, createUser, decideUserCode, findActiveSession, generateUserCode, lookUpUserCode, normaliseUserCode,
  pollDeviceCode, resolveSessionAccount, createOrganization, revokeSession,
} from './index.js';

describe('user codes', () => {
  it('are eight unambiguous letters, accepted however people type them', () => {
    for (let index = 0; index < 200; index += 1) expect(generateUserCode()).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(normaliseUserCode(' bcdf ghjk ')).toBe('BCDF-GHJK');
    expect(normaliseUserCode('bcdf-ghjk')).toBe('BCDF-GHJK');
    expect(normaliseUserCode('BCDF-GHJ0')).toBeUndefined();
    expect(normaliseUserCode('AEIO-UBCD')).toBeUndefined();
  });
});

describe('device codes, sessions and account choice (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
  });
  afterAll(() => database.close());

  it('exchanges an approved device code for exactly one session', async () => {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    const { deviceCode, userCode } = await createDeviceCode(database.sql, { ttlMs: 60_000 });
    const options = { deviceCode, minimumIntervalMs: 0, sessionTtlMs: 60_000 };
    expect(await pollDeviceCode(database.sql, options)).toEqual({ status: 'authorization_pending' });
    expect(await pollDeviceCode(database.sql, { ...options, minimumIntervalMs: 60_000 })).toEqual({ status: 'slow_down' });
    expect((await lookUpUserCode(database.sql, userCode.toLowerCase())).ok).toBe(true);
    expect(await decideUserCode(database.sql, { userCode, userId: user.userId, decision: 'approve' })).toEqual({ ok: true });
    expect(await decideUserCode(database.sql, { userCode, userId: user.userId, decision: 'deny' })).toMatchObject({ ok: false, reason: 'already_decided' });
    const results = await Promise.all([1, 2, 3].map(() => pollDeviceCode(database.sql, options)));
    const approved = results.filter((result) => result.status === 'approved');
    expect(approved).toHaveLength(1);
    expect(results.filter((result) => result.status === 'expired_token')).toHaveLength(2);
    const token = (approved[0] as { sessionToken: string }).sessionToken;
    expect(await findActiveSession(database.sql, token)).toMatchObject({ userId: user.userId, kind: 'cli' });
    const stored = await database.sql.query(`SELECT token_hash FROM sessions`);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(await revokeSession(database.sql, token)).toBe(true);
    expect(await findActiveSession(database.sql, token)).toBeUndefined();
  });

  it('expires codes and reports unknown ones', async () => {
    const { deviceCode, userCode } = await createDeviceCode(database.sql, { ttlMs: -1 });
    expect(await pollDeviceCode(database.sql, { deviceCode, minimumIntervalMs: 0, sessionTtlMs: 1 })).toEqual({ status: 'expired_token' });
    expect(await lookUpUserCode(database.sql, userCode)).toEqual({ ok: false, reason: 'expired' });
    expect(await pollDeviceCode(database.sql, { deviceCode: 'vr_device_nope', minimumIntervalMs: 0, sessionTtlMs: 1 })).toEqual({ status: 'invalid_device_code' });
  });

  it('picks the account a session acts for', async () => {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    expect(await resolveSessionAccount(database.sql, user.userId, undefined)).toMatchObject({ ok: true, account: { kind: 'personal' } });
    const first = await createOrganization(database.prisma, { name: 'one', ownerUserId: user.userId });
    expect(await resolveSessionAccount(database.sql, user.userId, undefined)).toMatchObject({ ok: true, account: { accountId: first.accountId } });
    const second = await createOrganization(database.prisma, { name: 'two', ownerUserId: user.userId });
    expect(await resolveSessionAccount(database.sql, user.userId, undefined)).toMatchObject({ ok: false, code: 'organization_required' });
    expect(await resolveSessionAccount(database.sql, user.userId, second.accountId)).toMatchObject({ ok: true, account: { accountId: second.accountId } });
    expect(await resolveSessionAccount(database.sql, user.userId, 'personal')).toMatchObject({ ok: true, account: { kind: 'personal' } });
    expect(await resolveSessionAccount(database.sql, user.userId, crypto.randomUUID())).toMatchObject({ ok: false, code: 'forbidden' });
    expect(await resolveSessionAccount(database.sql, user.userId, "' OR 1=1 --")).toMatchObject({ ok: false, code: 'forbidden' });
  });
});
