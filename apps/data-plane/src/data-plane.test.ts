// The assembled data plane on each server it can run: which one it reports and logs, the wallet
// activity endpoint that used to kill the process on Node 24 (the package's JS fallback threw from
// getQuery()), and a route that throws becoming one 500 while the process keeps serving.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createUser, grantCredit, openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry, type ProviderRegistry } from '@voice-router/providers';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane, type DataPlane } from './data-plane.js';
import type { ServerChoice } from './server/select-server.js';
import { testedServers } from './server/tested-servers.test-support.js';
import { loadNativeUws } from './server/uws-native.js';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
});
afterAll(async () => {
  await database?.close();
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(server: ServerChoice, registry?: ProviderRegistry): Promise<{ dataPlane: DataPlane; base: string; lines: string[] }> {
  const lines: string[] = [];
  const dataPlane = await startDataPlane({
    host: '127.0.0.1',
    port: 0,
    sql: database.sql,
    registry: registry ?? createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []),
    settler: createInProcessSettler({ sql: database.sql }),
    logger: createLogger({ name: 'test', level: 'info', write: (line) => lines.push(line) }),
    authCacheTtlMs: 0,
    streamMaxDurationMs: 10_000,
    shutdownGraceMs: 0,
    attemptTimeoutMs: 1000,
    server,
  });
  cleanups.push(() => dataPlane.close());
  return { dataPlane, base: `http://127.0.0.1:${dataPlane.port}`, lines };
}

describe.each(testedServers())('the data plane (%s server)', (server) => {
  it('reports and logs the server it runs', async () => {
    const { dataPlane, lines } = await start(server);
    expect(dataPlane.implementation).toBe(server === 'node' ? 'node-http' : 'uws-native');
    const startLine = lines.find((line) => line.includes('data plane HTTP server'))!;
    expect(startLine).toContain(server === 'node' ? 'node:http adapter' : 'native build @trufflesuite/uws-js-unofficial@20.30.0-unofficial.0');
  });

  it('serves GET /v1/credits/activity with and without a query string', async () => {
    const user = await createUser(database.prisma, { email: `activity-${server}-${Date.now()}@example.com` });
    const key = await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'test' });
    for (let index = 0; index < 7; index += 1) {
      await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 1000n + BigInt(index), source: 'admin' });
    }
    const { base } = await start(server);
    const headers = { authorization: `Bearer ${key.keyValue}` };
    for (const [target, rows] of [['/v1/credits/activity', 7], ['/v1/credits/activity?limit=5', 5], ['/v1/credits/activity?', 7]] as const) {
      const response = await fetch(`${base}${target}`, { headers });
      expect(response.status, target).toBe(200);
      const body = (await response.json()) as { rows: Array<{ microsDelta: number }> };
      expect(body.rows, target).toHaveLength(rows);
      expect(body.rows[0]!.microsDelta).toBe(1006);
    }
    expect((await fetch(`${base}/v1/credits/activity?limit=0`, { headers })).status).toBe(400);
    expect((await fetch(`${base}/v1/credits`, { headers })).status).toBe(200);
  });

  it('turns a route that throws into a 500 internal_error, logged once, and keeps serving', async () => {
    const registry = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []);
    let failing = true;
    const { base, lines } = await start(server, {
      ...registry,
      status: () => {
        if (failing) throw new Error('status exploded');
        return registry.status();
      },
    });
    // The catalog needs a token.
    const user = await createUser(database.prisma, { email: `throws-${server}-${Date.now()}@example.com` });
    const headers = { authorization: `Bearer ${(await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'test' })).keyValue}` };
    const response = await fetch(`${base}/v1/status`, { headers });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: 'internal_error' });
    expect(lines.filter((line) => line.includes('status exploded'))).toHaveLength(1);
    expect((await fetch(`${base}/v1/providers`, { headers })).status).toBe(200);
    failing = false;
    expect((await fetch(`${base}/v1/status`, { headers })).status).toBe(200);
  });
});

describe.runIf(!loadNativeUws().ok)('without a native uWS build', () => {
  it('refuses DATA_PLANE_SERVER=uws with a message naming the Node version, and auto runs the node:http adapter', async () => {
    await expect(start('uws')).rejects.toThrow(new RegExp(`DATA_PLANE_SERVER=uws.*Node ${process.version}`));
    expect((await start('auto')).dataPlane.implementation).toBe('node-http');
  });
});
