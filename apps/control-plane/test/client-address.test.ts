// Whose address the control plane counts attempts under: the socket's, unless the socket is a
// configured trusted proxy (then the address it reports), and in the embedded mode its in-process
// forwarder on loopback, as the nearest hop only. Scaled out, replicas share the counts in Redis.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@voice-router/ledger';
import { createLogger, parseTrustedProxies } from '@voice-router/service-kit';
import { announceSkip, createTestDatabase, flushRedisPrefix, postgresUrl, redisUrl, uniqueRedisPrefix, type TestDatabase } from '@voice-router/test-support';
import { createControlPlaneApp, type ControlPlaneOptions } from '../src/control-plane.js';
import { ATTEMPT_LIMITS } from '../src/security/attempt-limits.js';
import { createMemoryRateLimitStore, createRedisRateLimitStore, type RateLimitStore } from '../src/security/rate-limiter.js';
import { postFrom, serve } from './http-from.js';

const logger = createLogger({ name: 'control-plane-test', level: 'error' });
const BUDGET = ATTEMPT_LIMITS.deviceCodesPerAddress.limit;
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

async function start(database: Database, options: Partial<ControlPlaneOptions> = {}): Promise<string> {
  const server = await serve(createControlPlaneApp({ database, logger, ...options }));
  closers.push(server.close);
  return `${server.url}/v1/auth/device-code`;
}

/** Spends one address's device-code budget (as seen by the control plane) over the given URLs. */
async function spend(urls: string[], from: string, headers: Record<string, string> = {}): Promise<void> {
  for (let index = 0; index < BUDGET; index += 1) {
    const reply = await postFrom(from, urls[index % urls.length]!, headers);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  }
}

describe('the client address (PGlite)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite-memory' });
    closers.push(() => database.close());
  });

  it('ignores X-Forwarded-For from untrusted peers and believes a trusted proxy', async () => {
    const url = await start(database, { trustedProxies: parseTrustedProxies('127.0.0.9') });
    await spend([url], '127.0.0.9', { 'x-forwarded-for': '198.51.100.1' });
    const refused = await postFrom('127.0.0.9', url, { 'x-forwarded-for': '198.51.100.1' });
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    expect(Number(refused.retryAfter)).toBeGreaterThan(3_500);
    // Another client behind the same proxy has its own budget.
    expect((await postFrom('127.0.0.9', url, { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    // A client that is not a proxy cannot borrow the exhausted address, nor escape its own.
    expect((await postFrom('127.0.0.2', url, { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
    await spend([url], '127.0.0.3', { 'x-forwarded-for': '198.51.100.3' });
    expect((await postFrom('127.0.0.3', url, { 'x-forwarded-for': '198.51.100.4' })).status).toBe(429);
  });

  it('trusts loopback only as the nearest hop, when it is the embedded forwarder', async () => {
    const url = await start(database, { trustLoopbackForwarder: true });
    // The forwarder (127.0.0.1) reports the client at the right end; what lies further left is the client's own claim.
    await spend([url], '127.0.0.1', { 'x-forwarded-for': '127.0.0.5' });
    expect((await postFrom('127.0.0.1', url, { 'x-forwarded-for': '127.0.0.5' })).status).toBe(429);
    expect((await postFrom('127.0.0.1', url, { 'x-forwarded-for': '198.51.100.8, 127.0.0.5' })).status).toBe(429);
    expect((await postFrom('127.0.0.1', url, { 'x-forwarded-for': '127.0.0.5, 127.0.0.6' })).status).toBe(200);
    // Without the forwarder setting, a loopback peer is a client like any other.
    const plain = await start(database);
    await spend([plain], '127.0.0.1', { 'x-forwarded-for': '198.51.100.10' });
    expect((await postFrom('127.0.0.1', plain, { 'x-forwarded-for': '198.51.100.11' })).status).toBe(429);
  });
});

const sharedAvailable = Boolean(postgresUrl() && redisUrl());
if (!sharedAvailable) announceSkip('control planes sharing attempt limits in Redis', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(sharedAvailable)('two control-plane replicas (PostgreSQL and Redis)', () => {
  let testDatabase: TestDatabase;
  let databases: Database[];
  const prefix = uniqueRedisPrefix();

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    databases = [
      await openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 4 }),
      await openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 4 }),
    ];
    closers.push(async () => {
      for (const database of databases) await database.close();
      await testDatabase.drop();
      await flushRedisPrefix(redisUrl()!, prefix);
    });
  });

  async function replicas(stores: RateLimitStore[]): Promise<string[]> {
    for (const store of stores) closers.push(() => store.close());
    return Promise.all(stores.map((rateLimits, index) => start(databases[index]!, { rateLimits })));
  }

  it('share one budget per address through Redis', async () => {
    const redisStore = () => createRedisRateLimitStore({ redisUrl: redisUrl()!, prefix, logger });
    const urls = await replicas([await redisStore(), await redisStore()]);
    await spend(urls, '127.0.0.2');
    for (const url of urls) expect((await postFrom('127.0.0.2', url)).status).toBe(429);
    expect((await postFrom('127.0.0.3', urls[1]!)).status).toBe(200);
  });

  it('count apart when each keeps its counts in memory (what REDIS_URL fixes)', async () => {
    const urls = await replicas([createMemoryRateLimitStore(), createMemoryRateLimitStore()]);
    await spend(urls, '127.0.0.4');
    for (const url of urls) expect((await postFrom('127.0.0.4', url)).status).toBe(200);
  });
});
