// PATCH /v1/keys/{id}: the minter or an account owner changes a key's name and limits; anyone else
// gets 404; bad bodies get 400 invalid_body and change nothing; the data plane in this process hears.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addMember, createApiKey, createOrganization, createSession, createUser, findActiveApiKey, hashApiKey, openDatabase, type Database,
} from '@voice-router/ledger';
import { createLogger } from '@voice-router/service-kit';
import { createControlPlaneApp } from '../control-plane.js';
import { listen } from '../listen.js';

let database: Database;
let server: { port: number; close(): Promise<void> };
const changedHashes: string[] = [];

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
  const app = createControlPlaneApp({ database, logger: createLogger({ name: 'test', level: 'error' }), onKeyRevoked: (hash) => changedHashes.push(hash) });
  server = await listen(app, '127.0.0.1', 0);
});

afterAll(async () => {
  await server?.close();
  await database?.close();
});

async function signedIn(email: string) {
  const user = await createUser(database.prisma, { email });
  const { token } = await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 });
  return { ...user, token };
}

function patch(token: string, id: string, body: unknown) {
  return fetch(`http://127.0.0.1:${server.port}/v1/keys/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('PATCH /v1/keys/{id}', () => {
  it('changes only the fields sent, null returning a limit to the default, and tells the data plane', async () => {
    const owner = await signedIn('patch-owner@example.com');
    const key = await createApiKey(database.prisma, {
      accountId: owner.personalAccountId, createdByUserId: owner.userId, name: 'before', maxConcurrency: 2, monthlySpendCapMicros: 9n,
    });
    const response = await patch(owner.token, key.id, { name: 'after', rateLimitPerMinute: 30, maxConcurrency: null, dailySpendCapMicros: 5_000 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      // Listed as the deployment default it now follows (the spec types the field integer); stored as null below.
      id: key.id, name: 'after', rateLimitPerMinute: 30, maxConcurrency: 8, dailySpendCapMicros: 5_000, monthlySpendCapMicros: 9,
    });
    expect(changedHashes).toContain(hashApiKey(key.keyValue));
    expect(await findActiveApiKey(database.sql, hashApiKey(key.keyValue))).toMatchObject({
      rateLimitPerMinute: 30, maxConcurrency: null, dailySpendCapMicros: 5_000n, monthlySpendCapMicros: 9n,
    });
  });

  it('refuses bad bodies with 400 invalid_body and changes nothing', async () => {
    const owner = await signedIn('patch-bad@example.com');
    const key = await createApiKey(database.prisma, { accountId: owner.personalAccountId, createdByUserId: owner.userId, name: 'kept', rateLimitPerMinute: 7 });
    for (const body of [{}, { maxConcurrency: 0 }, { rateLimitPerMinute: 1.5 }, { dailySpendCapMicros: -1 }, { name: '' }, { unknown: 1 }, '{oops', { maxConcurrency: '3' }]) {
      const response = await patch(owner.token, key.id, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body' });
    }
    expect(await findActiveApiKey(database.sql, hashApiKey(key.keyValue))).toMatchObject({ rateLimitPerMinute: 7 });
  });

  it('answers 404 to other members, unknown and revoked keys, and lets an organization owner edit a member\'s key', async () => {
    const owner = await signedIn('patch-org-owner@example.com');
    const member = await signedIn('patch-member@example.com');
    const other = await signedIn('patch-other@example.com');
    const { accountId } = await createOrganization(database.prisma, { name: 'Patch Org', ownerUserId: owner.userId });
    await addMember(database.prisma, { accountId, userId: member.userId });
    await addMember(database.prisma, { accountId, userId: other.userId });
    const key = await createApiKey(database.prisma, { accountId, createdByUserId: member.userId, name: 'member key' });
    expect((await patch(other.token, key.id, { maxConcurrency: 1 })).status).toBe(404);
    expect((await patch(other.token, 'not-a-uuid', { maxConcurrency: 1 })).status).toBe(404);
    expect((await patch(owner.token, key.id, { maxConcurrency: 1 })).status).toBe(200);
    expect((await patch(member.token, key.id, { maxConcurrency: 2 })).status).toBe(200);
    await database.sql.query(`UPDATE api_keys SET revoked_at = now() WHERE id = $1::uuid`, [key.id]);
    expect((await patch(member.token, key.id, { maxConcurrency: 3 })).status).toBe(404);
  });
});
