import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry } from '@voice-router/providers';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane, type DataPlane } from '../data-plane.js';
import { selectServer } from '../server/select-server.js';
import { testedServers } from '../server/tested-servers.test-support.js';
import type { ListenSocket } from '../uws.js';
import { createStreamMetrics, instrumentApp, registerMetricsRoute, type StreamMetricsSnapshot } from './stream-metrics.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function readMetrics(port: number): Promise<StreamMetricsSnapshot> {
  const response = await fetch(`http://127.0.0.1:${port}/internal/metrics`);
  expect(response.status).toBe(200);
  return (await response.json()) as StreamMetricsSnapshot;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not reached');
}

describe.each(testedServers())('stream metrics (%s server)', (choice) => {
  it('counts an open stream and the backlog a client that does not read leaves behind', async () => {
    const { server: uws } = selectServer(choice);
    const app = uws.App();
    const metrics = createStreamMetrics();
    registerMetricsRoute(app, metrics);
    const chunk = Buffer.alloc(64 * 1024, 7);
    // Writes like the speech route: one chunk at a time, waiting for onWritable under backpressure,
    // far more than the kernel's socket buffers hold, so uWS must report backpressure.
    instrumentApp(app, metrics).get('/stream', (res) => {
      let aborted = false;
      res.onAborted(() => {
        aborted = true;
      });
      res.writeStatus('200 OK');
      const pump = (): void => {
        for (let index = 0; index < 400 && !aborted; index += 1) {
          if (!res.write(chunk)) {
            res.onWritable(() => {
              pump();
              return true;
            });
            return;
          }
        }
      };
      pump();
    });
    const listenSocket = await new Promise<ListenSocket>((resolve, reject) =>
      app.listen('127.0.0.1', 0, (socket) => (socket ? resolve(socket) : reject(new Error('cannot listen')))));
    cleanups.push(() => uws.us_listen_socket_close(listenSocket));
    const port = uws.us_socket_local_port(listenSocket);

    const client = net.connect(port, '127.0.0.1');
    cleanups.push(() => void client.destroy());
    client.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n');
    client.pause();

    await until(async () => (await readMetrics(port)).backpressureEvents > 0);
    const during = await readMetrics(port);
    expect(during.requests).toBe(1);
    expect(during.activeStreams).toBe(1);
    expect(during.maxStreamBacklogBytes).toBeGreaterThan(0);
    expect(during.maxStreamBacklogBytes).toBeLessThanOrEqual(chunk.length);
    expect(during.currentBacklogBytes).toBe(during.maxStreamBacklogBytes);

    client.destroy();
    await until(async () => (await readMetrics(port)).activeStreams === 0);
    const after = await readMetrics(port);
    expect(after.finished).toBe(1);
    expect(after.currentBacklogBytes).toBe(0);
  });

});

describe('stream metrics window', () => {
  it('starts a fresh window on ?reset=1', async () => {
    const metrics = createStreamMetrics();
    metrics.counters.requests = 5;
    metrics.counters.maxStreamBacklogBytes = 100;
    metrics.counters.activeStreams = 2;
    metrics.reset();
    expect(metrics.snapshot()).toMatchObject({ requests: 0, maxStreamBacklogBytes: 0, activeStreams: 2 });
  });
});

describe.each(testedServers())('the data plane with and without DATA_PLANE_METRICS (%s server)', (server) => {
  async function start(database: Database, metrics: boolean): Promise<DataPlane> {
    const dataPlane = await startDataPlane({
      host: '127.0.0.1',
      port: 0,
      sql: database.sql,
      registry: createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, []),
      settler: createInProcessSettler({ sql: database.sql }),
      logger: createLogger({ name: 'test', level: 'error' }),
      authCacheTtlMs: 0,
      streamMaxDurationMs: 10_000,
      shutdownGraceMs: 0,
      attemptTimeoutMs: 1000,
      metrics,
      server,
    });
    cleanups.push(() => dataPlane.close());
    return dataPlane;
  }

  it('serves /internal/metrics only when enabled, and counts requests to other routes', async () => {
    const database = await openDatabase({ kind: 'pglite-memory' });
    cleanups.push(() => database.close());
    const off = await start(database, false);
    expect((await fetch(`http://127.0.0.1:${off.port}/internal/metrics`)).status).toBe(404);

    const on = await start(database, true);
    expect((await fetch(`http://127.0.0.1:${on.port}/v1/status`)).status).toBe(401);
    const snapshot = await readMetrics(on.port);
    expect(snapshot.requests).toBe(1);
    expect(snapshot.finished).toBe(1);
    expect(snapshot.activeStreams).toBe(0);
  });
});
