import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../logger.js';
import { httpMetrics } from './metric-definitions.js';
import { metricsSettings } from './metrics-environment.js';
import { createMetricsRegistry } from './metrics-registry.js';
import { startMetricsServer, startProcessMetrics, type MetricsServer } from './metrics-server.js';

const lines: string[] = [];
const logger = createLogger({ name: 'test', write: (line) => lines.push(line) });
const servers: MetricsServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
  lines.length = 0;
});

async function occupiedPort(): Promise<{ port: number; close(): void }> {
  const blocker = net.createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  return { port: (blocker.address() as net.AddressInfo).port, close: () => blocker.close() };
}

describe('the metrics listener', () => {
  it('serves the registry as Prometheus text at GET /metrics and nothing else', async () => {
    const registry = createMetricsRegistry();
    httpMetrics(registry).requests.cell('/v1/audio/speech', '200', 'openai').inc();
    const server = await startMetricsServer({ registry, host: '127.0.0.1', port: 0, logger });
    servers.push(server);
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toContain('voice_router_http_requests_total{route="/v1/audio/speech",status="200",provider="openai"} 1');
    expect(text).toContain('process_cpu_seconds_total');
    expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.port}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('shares one metric group between apps of one process', () => {
    const registry = createMetricsRegistry({ defaultMetrics: false });
    expect(httpMetrics(registry)).toBe(httpMetrics(registry));
    expect(httpMetrics(createMetricsRegistry({ defaultMetrics: false }))).not.toBe(httpMetrics(registry));
  });

  it('refuses a METRICS_PORT that is taken, but runs on without metrics when only the default is', async () => {
    const blocker = await occupiedPort();
    try {
      await expect(startMetricsServer({ registry: createMetricsRegistry(), host: '127.0.0.1', port: blocker.port, logger }))
        .rejects.toThrow(/METRICS_PORT/);
      const fallback = await startMetricsServer({ registry: createMetricsRegistry(), host: '127.0.0.1', port: blocker.port, portIsDefault: true, logger });
      expect(fallback.port).toBeUndefined();
      expect(lines.join('')).toContain('metrics not served');
    } finally {
      blocker.close();
    }
  });

  it('records nothing and listens nowhere with METRICS_ENABLED=false', async () => {
    const settings = metricsSettings({ METRICS_ENABLED: false, METRICS_PORT: 0 });
    const { registry, server } = await startProcessMetrics(settings, '127.0.0.1', logger);
    expect(registry).toBeUndefined();
    expect(server.port).toBeUndefined();
    expect(metricsSettings({ METRICS_ENABLED: true })).toEqual({ enabled: true, port: 9464, portIsDefault: true });
  });
});
