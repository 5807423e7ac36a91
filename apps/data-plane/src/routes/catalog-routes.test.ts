// The catalog (/v1/providers, /v1/voices, /v1/status) answers only requests with a valid bearer token:
// a pk_ key, a CLI session (so `vr voices` keeps working after `vr login`) or a console session (the Voices page),
// whatever account it acts for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiKey, createOrganization, createSession, createUser, openDatabase, revokeSession, type Database,
} from '@voice-router/ledger';
import { createProviderRegistry, type ProviderRegistry } from '@voice-router/providers';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane, type DataPlane } from '../data-plane.js';

const CATALOG = ['/v1/providers', '/v1/voices', '/v1/voices?provider=openai&language=en', '/v1/status'];

let database: Database;
let registry: ProviderRegistry;
let dataPlane: DataPlane;
let baseUrl: string;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
  registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 });
  dataPlane = await startDataPlane({
    host: '127.0.0.1', port: 0, sql: database.sql, registry, settler: createInProcessSettler({ sql: database.sql }),
    logger: createLogger({ name: 'test', level: 'error' }), authCacheTtlMs: 0, streamMaxDurationMs: 10_000, attemptTimeoutMs: 1000, shutdownGraceMs: 0,
  });
  baseUrl = `http://127.0.0.1:${dataPlane.port}`;
  const user = await createUser(database.prisma, { email: 'catalog@example.com' });
  // Two organizations: a session without X-Organization-Id cannot pick an account, which the catalog does not need.
  await createOrganization(database.prisma, { name: 'one', ownerUserId: user.userId });
  await createOrganization(database.prisma, { name: 'two', ownerUserId: user.userId });
  tokens.key = (await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'catalog' })).keyValue;
  tokens.cli = (await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 })).token;
  tokens.console = (await createSession(database.sql, { userId: user.userId, kind: 'console', ttlMs: 60_000 })).token;
  tokens.revoked = (await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 })).token;
  await revokeSession(database.sql, tokens.revoked);
});

afterAll(async () => {
  await dataPlane?.close();
  await registry?.close();
  await database?.close();
});

const get = (path: string, authorization?: string) =>
  fetch(`${baseUrl}${path}`, { headers: authorization === undefined ? {} : { authorization } });

describe('the catalog', () => {
  it.each(CATALOG)('answers %s with 401 unauthorized without a valid token', async (path) => {
    const refused = [
      undefined, '', 'Bearer', 'Bearer ', 'Basic Zm9vOmJhcg==', 'Bearer pk_unknown', `Bearer ${'pk_'.padEnd(600, 'x')}`,
      'Bearer vr_session_unknown', `Bearer ${tokens.revoked}`, `Token ${tokens.key}`,
    ];
    for (const authorization of refused) {
      const response = await get(path, authorization);
      expect(response.status, `${authorization}`).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(await response.json()).toMatchObject({ error: 'unauthorized', details: expect.stringContaining('Bearer') });
    }
  });

  it.each(CATALOG)('serves %s to a pk_ key, a CLI session and a console session', async (path) => {
    for (const token of [tokens.key!, tokens.cli!, tokens.console!]) {
      const response = await get(path, `Bearer ${token}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as Record<string, unknown[]>;
      expect(Object.values(body)[0]!.length).toBeGreaterThan(0);
    }
  });

  it('filters voices the same for either token', async () => {
    const voices = async (token: string) =>
      ((await (await get('/v1/voices?provider=openai', `Bearer ${token}`)).json()) as { voices: Array<{ provider: string }> }).voices;
    const byKey = await voices(tokens.key!);
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((voice) => voice.provider === 'openai')).toBe(true);
    expect(await voices(tokens.cli!)).toEqual(byKey);
    expect(await voices(tokens.console!)).toEqual(byKey);
  });

  it('takes a console session for the catalog only, never for the wallet or speech', async () => {
    const token = `Bearer ${tokens.console}`;
    for (const path of ['/v1/credits', '/v1/credits/activity']) expect((await get(path, token)).status, path).toBe(401);
    const speech = await fetch(`${baseUrl}/v1/audio/speech`, {
      method: 'POST', headers: { authorization: token, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'local/espeak-ng', voice: 'en-us', input: 'hi' }),
    });
    expect(speech.status).toBeGreaterThanOrEqual(400);
    expect(speech.status).not.toBe(200);
  });
});
