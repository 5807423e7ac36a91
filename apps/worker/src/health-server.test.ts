// The worker's probes: the listener's answers with injected checks, then the real worker process on
// PostgreSQL and Redis, reached through loopback TCP proxies so the test can cut each dependency off.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  announceSkip, createTestDatabase, freePort, postgresUrl, redisUrl, startTcpProxy, uniqueRedisPrefix, type TcpProxy, type TestDatabase,
} from '@voice-router/test-support';
import { startHealthServer, type HealthChecks, type HealthServer } from './health-server.js';

const fail = () => Promise.reject(new Error('unreachable'));
const pass = () => Promise.resolve();

describe('the worker health listener', () => {
  let server: HealthServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function probe(checks: HealthChecks, path: string, method = 'GET') {
    server = await startHealthServer({ host: '127.0.0.1', port: 0, checks });
    const response = await fetch(`http://127.0.0.1:${server.port}${path}`, { method });
    const text = await response.text();
    await server.close();
    server = undefined;
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  it('is alive whatever its dependencies say, and ready only when both answer and it is not draining', async () => {
    const down: HealthChecks = { draining: () => true, database: fail, redis: fail };
    expect(await probe(down, '/healthz')).toMatchObject({ status: 200, body: { status: 'ok' } });
    expect(await probe({ draining: () => false, database: pass, redis: pass }, '/readyz')).toMatchObject({ status: 200, body: { status: 'ready' } });
    expect(await probe({ draining: () => true, database: pass, redis: pass }, '/readyz')).toMatchObject({ status: 503, body: { status: 'not_ready', reason: 'draining' } });
    expect(await probe({ draining: () => false, database: fail, redis: pass }, '/readyz')).toMatchObject({ status: 503, body: { reason: 'database_unreachable' } });
    expect(await probe({ draining: () => false, database: pass, redis: fail }, '/readyz')).toMatchObject({ status: 503, body: { reason: 'redis_unreachable' } });
  });

  it('fails readiness when a dependency hangs, instead of hanging the probe', async () => {
    const hang = () => new Promise<never>(() => undefined);
    const started = Date.now();
    expect(await probe({ draining: () => false, database: pass, redis: hang }, '/readyz')).toMatchObject({ status: 503, body: { reason: 'redis_unreachable' } });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('answers HEAD without a body, other methods with 405 and other paths with 404', async () => {
    const healthy: HealthChecks = { draining: () => false, database: pass, redis: pass };
    expect(await probe(healthy, '/readyz', 'HEAD')).toMatchObject({ status: 200, body: undefined });
    const posted = await probe(healthy, '/healthz', 'POST');
    expect(posted).toMatchObject({ status: 405, body: { error: 'method_not_allowed' } });
    expect(posted.headers.get('allow')).toBe('GET, HEAD');
    expect(await probe(healthy, '/metricz')).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect(await probe(healthy, '/healthz?verbose=1')).toMatchObject({ status: 200 });
  });

  it('says which setting to change when its port is taken', async () => {
    const healthy: HealthChecks = { draining: () => false, database: pass, redis: pass };
    server = await startHealthServer({ host: '127.0.0.1', port: 0, checks: healthy });
    await expect(startHealthServer({ host: '127.0.0.1', port: server.port, checks: healthy })).rejects.toThrow(/METRICS_PORT \d+ is in use/);
  });
});

const backingServices = Boolean(postgresUrl() && redisUrl());
if (!backingServices) announceSkip('worker process health probes', 'DATABASE_URL and REDIS_URL are not both set');

describe.runIf(backingServices)('the worker process\'s probes', () => {
  const entry = fileURLToPath(new URL('../dist/main.js', import.meta.url));
  let database: TestDatabase;
  let postgresProxy: TcpProxy;
  let redisProxy: TcpProxy;
  let worker: ChildProcess;
  const output: string[] = [];
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const target = (url: string) => ({ host: new URL(url).hostname, port: Number(new URL(url).port) });
    postgresProxy = await startTcpProxy(target(database.url));
    redisProxy = await startTcpProxy(target(redisUrl()!));
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    worker = spawn(process.execPath, [entry], {
      cwd: path.dirname(entry),
      env: {
        PATH: process.env.PATH ?? '', DATABASE_URL: postgresProxy.urlFor(database.url), REDIS_URL: redisProxy.urlFor(redisUrl()!),
        REDIS_PREFIX: uniqueRedisPrefix(), METRICS_PORT: String(port), DB_POOL_SIZE: '2', LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    worker.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    await until(async () => (await status('/readyz')) === 200, 60_000);
  });

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      worker.kill('SIGKILL');
      await new Promise((resolve) => worker.once('exit', resolve));
    }
    await redisProxy?.close();
    await postgresProxy?.close();
    await database?.drop();
  });

  async function status(pathname: string): Promise<number | undefined> {
    try {
      return (await fetch(`${base}${pathname}`)).status;
    } catch {
      return undefined; // not listening (yet, or any more)
    }
  }

  async function until(condition: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (worker.exitCode !== null) throw new Error(`the worker exited (${worker.exitCode}):\n${output.join('')}`);
      if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms:\n${output.join('')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const readyz = async () => {
    const response = await fetch(`${base}/readyz`);
    return { status: response.status, body: await response.json() };
  };

  it('is alive and ready on METRICS_PORT', async () => {
    expect(await status('/healthz')).toBe(200);
    expect(await readyz()).toEqual({ status: 200, body: { status: 'ready' } });
  });

  it('is not ready while Redis is unreachable, and ready again when it is back', async () => {
    redisProxy.cut();
    try {
      await until(async () => (await readyz()).status === 503);
      expect(await readyz()).toEqual({ status: 503, body: { status: 'not_ready', reason: 'redis_unreachable' } });
      expect(await status('/healthz')).toBe(200);
    } finally {
      redisProxy.restore();
    }
    await until(async () => (await readyz()).status === 200);
  });

  it('is not ready while its database is unreachable, and ready again when it is back', async () => {
    postgresProxy.cut();
    try {
      await until(async () => (await readyz()).status === 503);
      expect(await readyz()).toEqual({ status: 503, body: { status: 'not_ready', reason: 'database_unreachable' } });
      expect(await status('/healthz')).toBe(200);
    } finally {
      postgresProxy.restore();
    }
    await until(async () => (await readyz()).status === 200, 30_000);
  });

  it('exits 0 on SIGTERM and stops listening', async () => {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    worker.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(await status('/healthz')).toBeUndefined();
  });
});
