// `npm start` on PostgreSQL + Redis, and Redis dies under load: every request that answered 200 ends
// committed (the settlement falls back to the database), Redis returning changes nothing twice, and
// SIGTERM still exits promptly with Redis gone. Uses a private redis-server, never the shared one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import {
  announceSkip, createTestDatabase, postgresUrl, redisServerAvailable, startPrivateRedis, type PrivateRedis, type TestDatabase,
} from '@voice-router/test-support';
import { activity, credits, readyWithin, settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

const runnable = Boolean(postgresUrl()) && redisServerAvailable();
if (!runnable) announceSkip('settlement through a Redis outage (embedded on PostgreSQL + Redis)', 'needs DATABASE_URL and a redis-server binary');

describe.runIf(runnable)('embedded service on PostgreSQL + Redis when Redis goes away', () => {
  let fake: CombinedFakeProviderServer;
  let redis: PrivateRedis;
  let database: TestDatabase;
  let system: RunningSystem;

  beforeAll(async () => {
    fake = await startFakeProviders({ totalBytes: 8_192, chunkBytes: 1_024, chunkIntervalMs: 20 });
    redis = await startPrivateRedis();
    database = await createTestDatabase();
    system = await startSystem({
      mode: 'embedded',
      environment: {
        DATABASE_URL: database.url, REDIS_URL: redis.url, OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        // 20 parallel streams on one key: above the default concurrency limit (8).
        DEFAULT_KEY_MAX_CONCURRENCY: '100',
      },
    });
  });
  afterAll(async () => {
    await system?.close();
    await redis?.stop();
    await database?.drop();
    await fake?.close();
  });

  it('commits every completed request while Redis is down, settles nothing twice after, and stops on SIGTERM without Redis', { timeout: 120_000 }, async () => {
    const input = 'ten chars!';
    const cost = input.length * 15;
    const wallet = await fundedKey(system, '1');
    const request = async () => {
      const response = await speech(system.baseUrl, wallet.key, { model: 'openai/tts-1', voice: 'alloy', input });
      await response.arrayBuffer();
      return response.status;
    };

    expect(await Promise.all(Array.from({ length: 3 }, request))).toEqual([200, 200, 200]);
    expect(await settled(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 1_000_000 - 3 * cost, reservedMicros: 0 });

    // Redis dies while 20 requests stream.
    const burst = Promise.all(Array.from({ length: 20 }, request));
    await new Promise((resolve) => setTimeout(resolve, 60));
    await redis.stop();
    const statuses = await burst;
    const completed = statuses.filter((status) => status === 200).length;
    expect(completed).toBe(20);
    expect(await Promise.all(Array.from({ length: 5 }, request))).toEqual([200, 200, 200, 200, 200]);
    expect(await settled(system.baseUrl, wallet.key, 15_000)).toEqual({ balanceMicros: 1_000_000 - 28 * cost, reservedMicros: 0 });
    // Readiness tells a balancer this replica has lost Redis (it still serves, settling through the database).
    const readiness = await fetch(`${system.baseUrl}/readyz`);
    expect(readiness.status).toBe(503);
    expect(await readiness.json()).toEqual({ status: 'not_ready', reason: 'redis_unreachable' });

    await redis.start();
    expect(await Promise.all(Array.from({ length: 3 }, request))).toEqual([200, 200, 200]);
    expect(await readyWithin(system.baseUrl)).toBe(200);
    expect(await settled(system.baseUrl, wallet.key, 30_000)).toEqual({ balanceMicros: 1_000_000 - 31 * cost, reservedMicros: 0 });
    const rows = await activity(system.baseUrl, wallet.key, 100);
    expect(rows.filter((row) => row.kind === 'commit')).toHaveLength(31);
    expect(rows.filter((row) => row.kind === 'void')).toHaveLength(0);
    expect(await system.admin('audit', '--email', wallet.email)).toMatchObject({ consistent: true });
    expect(await credits(system.baseUrl, wallet.key)).toEqual({ balanceMicros: 1_000_000 - 31 * cost, reservedMicros: 0 });

    await redis.stop();
    const stopped = await system.terminate("embedded", 25_000);
    if (stopped.signal) console.log(system.logs().slice(-6000));
    expect(stopped.signal).toBeNull();
    expect(stopped.code).toBe(0);
    expect(stopped.elapsedMs).toBeLessThan(30_000);
  });
});
