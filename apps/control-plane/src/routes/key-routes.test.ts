// Key listings show integers for maxConcurrency and rateLimitPerMinute (the spec types them `integer`):
// a key's own limits, or the deployment defaults parsed from the environment.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createSession, createUser, openDatabase, type Database } from '@voice-router/ledger';
import { ConfigurationError, createLogger, parseEnvironment } from '@voice-router/service-kit';
import { createControlPlaneApp } from '../control-plane.js';
import { createConsoleServices } from '../console/console-service-implementation.js';
import { controlPlaneEnvironmentSchema, controlPlaneSettings } from '../environment.js';
import { DEFAULT_KEY_LIMITS } from '../key-limits.js';
import { listen } from '../listen.js';
import { createAttemptLimiters } from '../security/attempt-limits.js';
import { createMemoryRateLimitStore } from '../security/rate-limiter.js';

const requiredEnvironment = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/postgres' };

let database: Database;
let user: { userId: string; personalAccountId: string };
let sessionToken: string;
const servers: Array<{ close(): Promise<void> }> = [];

beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
  user = await createUser(database.prisma, { email: 'limits@example.com' });
  sessionToken = (await createSession(database.sql, { userId: user.userId, kind: 'cli', ttlMs: 60_000 })).token;
  await createApiKey(database.prisma, { accountId: user.personalAccountId, createdByUserId: user.userId, name: 'bare' });
  await createApiKey(database.prisma, {
    accountId: user.personalAccountId, createdByUserId: user.userId, name: 'own', maxConcurrency: 3, rateLimitPerMinute: 42,
  });
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await database?.close();
});

async function listKeys(environment: Record<string, string>) {
  const settings = controlPlaneSettings(parseEnvironment('control-plane', controlPlaneEnvironmentSchema, { ...requiredEnvironment, ...environment }));
  const server = await listen(createControlPlaneApp({ database, logger: createLogger({ name: 'test', level: 'error' }), ...settings }), '127.0.0.1', 0);
  servers.push(server);
  const response = await fetch(`http://127.0.0.1:${server.port}/v1/keys`, { headers: { authorization: `Bearer ${sessionToken}` } });
  expect(response.status).toBe(200);
  const { keys } = (await response.json()) as { keys: Array<{ name: string; maxConcurrency: unknown; rateLimitPerMinute: unknown }> };
  return Object.fromEntries(keys.map((key) => [key.name, { maxConcurrency: key.maxConcurrency, rateLimitPerMinute: key.rateLimitPerMinute }]));
}

describe('key limits in listings', () => {
  it('show the deployment defaults (8 and 600) for a key without its own, and its own otherwise', async () => {
    expect(DEFAULT_KEY_LIMITS).toEqual({ maxConcurrency: 8, rateLimitPerMinute: 600 });
    expect(await listKeys({})).toEqual({
      bare: { maxConcurrency: 8, rateLimitPerMinute: 600 },
      own: { maxConcurrency: 3, rateLimitPerMinute: 42 },
    });
  });

  it('take DEFAULT_KEY_MAX_CONCURRENCY and DEFAULT_KEY_RATE_LIMIT_PER_MINUTE from the environment', async () => {
    expect(await listKeys({ DEFAULT_KEY_MAX_CONCURRENCY: '2', DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: '120' })).toEqual({
      bare: { maxConcurrency: 2, rateLimitPerMinute: 120 },
      own: { maxConcurrency: 3, rateLimitPerMinute: 42 },
    });
  });

  it('show the same integers in the console', async () => {
    const services = createConsoleServices({
      database, signupMode: 'open', onKeyRevoked: () => undefined, limits: createAttemptLimiters(createMemoryRateLimitStore()),
      keyLimitDefaults: { maxConcurrency: 5, rateLimitPerMinute: 70 },
    });
    const keys = await services.listKeys({ userId: user.userId, accountId: user.personalAccountId });
    // The console keeps the key's own values (null: the default applies) for its edit form, and shows the effective ones.
    expect(Array.isArray(keys) && keys.map((key) => [key.name, key.maxConcurrency, key.rateLimitPerMinute, key.effective])).toEqual([
      ['own', 3, 42, { maxConcurrency: 3, rateLimitPerMinute: 42 }],
      ['bare', null, null, { maxConcurrency: 5, rateLimitPerMinute: 70 }],
    ]);
  });

  it('refuse a key name with control characters (NUL cannot be stored: it was a 500, found by the fuzz)', async () => {
    const server = await listen(createControlPlaneApp({ database, logger: createLogger({ name: 'test', level: 'error' }) }), '127.0.0.1', 0);
    servers.push(server);
    for (const name of ['\u0000', 'a\u0000b', 'tab\there', '\u007f']) {
      const response = await fetch(`http://127.0.0.1:${server.port}/v1/keys`, {
        method: 'POST', headers: { authorization: `Bearer ${sessionToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ name }),
      });
      expect(response.status, JSON.stringify(name)).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_body', details: expect.stringContaining('control characters') });
    }
    const services = createConsoleServices({
      database, signupMode: 'open', onKeyRevoked: () => undefined, limits: createAttemptLimiters(createMemoryRateLimitStore()), keyLimitDefaults: DEFAULT_KEY_LIMITS,
    });
    expect(await services.createKey({ userId: user.userId, accountId: user.personalAccountId, name: 'a\u0000' })).toMatchObject({ ok: false, reason: 'invalid' });
    expect(await services.createOrganization({ userId: user.userId, name: '\u0000' })).toMatchObject({ ok: false, reason: 'invalid' });
  });

  it.each([
    ['DEFAULT_KEY_MAX_CONCURRENCY', '0'], ['DEFAULT_KEY_MAX_CONCURRENCY', '2.5'], ['DEFAULT_KEY_MAX_CONCURRENCY', 'many'],
    ['DEFAULT_KEY_MAX_CONCURRENCY', '10001'], ['DEFAULT_KEY_RATE_LIMIT_PER_MINUTE', '-1'], ['DEFAULT_KEY_RATE_LIMIT_PER_MINUTE', '1000001'],
  ])('refuse to start with %s=%s, naming the variable', (name, value) => {
    expect(() => parseEnvironment('control-plane', controlPlaneEnvironmentSchema, { ...requiredEnvironment, [name]: value }))
      .toThrow(new RegExp(`${name}`));
    expect(() => parseEnvironment('control-plane', controlPlaneEnvironmentSchema, { ...requiredEnvironment, [name]: value }))
      .toThrow(ConfigurationError);
  });
});
