// The metrics listener: GET /metrics on its own port (METRICS_PORT), never on an app's public port, so
// a load balancer or ingress that exposes the API cannot expose the metrics by accident. Apps may add a
// few more operational routes to it (the worker, which has no other listener, adds its health probes).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from '../logger.js';
import type { MetricsSettings } from './metrics-environment.js';
import { createMetricsRegistry, type MetricsRegistry } from './metrics-registry.js';

export type MetricsServerRoute = (request: http.IncomingMessage, response: http.ServerResponse) => void;

export interface MetricsServerOptions {
  /** Without one (METRICS_ENABLED=false) /metrics answers 404 and only `routes` are served. */
  registry?: MetricsRegistry;
  host: string;
  port: number;
  /** Explicitly configured ports must be free; the default may be taken (several apps on one host), see below. */
  portIsDefault?: boolean;
  logger: Logger;
  /** Extra GET routes by exact path (e.g. '/healthz'). */
  routes?: Record<string, MetricsServerRoute>;
}

export interface MetricsServer {
  /** The port it listens on; undefined when the default port was taken and metrics are not served. */
  port: number | undefined;
  close(): Promise<void>;
}

function answer(response: http.ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

async function serveMetrics(registry: MetricsRegistry, response: http.ServerResponse, logger: Logger): Promise<void> {
  try {
    const text = await registry.metrics();
    answer(response, 200, registry.contentType, text);
  } catch (error) {
    logger.error('collecting metrics failed', { error });
    answer(response, 500, 'application/json', JSON.stringify({ error: 'internal_error', details: 'collecting metrics failed' }));
  }
}

export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    const method = request.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return answer(response, 405, 'application/json', JSON.stringify({ error: 'method_not_allowed' }));
    if (path === '/metrics' && options.registry) return void serveMetrics(options.registry, response, options.logger);
    const route = path === undefined ? undefined : options.routes?.[path];
    if (route) return route(request, response);
    answer(response, 404, 'application/json', JSON.stringify({ error: 'not_found', details: 'this listener serves /metrics' }));
  });
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => resolve());
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (options.portIsDefault && code === 'EADDRINUSE') {
      // Several apps started on one host with the defaults: the first one serves its metrics, the
      // others say so loudly and run on (set METRICS_PORT per process to get them all).
      options.logger.warn(`metrics not served: the default METRICS_PORT ${options.port} is in use on ${options.host}; set METRICS_PORT`, { port: options.port });
      return { port: undefined, close: async () => undefined };
    }
    throw new Error(`cannot serve metrics on ${options.host}:${options.port} (METRICS_PORT): ${(error as Error).message}`);
  }
  const port = (server.address() as AddressInfo).port;
  options.logger.info('metrics listening', { url: `http://${options.host}:${port}/metrics` });
  return {
    port,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/**
 * The process's metrics: a registry and its listener on the app's host, or neither when
 * METRICS_ENABLED=false (then the apps record nothing; a listener still starts if `routes` need one).
 */
export async function startProcessMetrics(
  settings: MetricsSettings, host: string, logger: Logger, routes?: Record<string, MetricsServerRoute>,
): Promise<{ registry: MetricsRegistry | undefined; server: MetricsServer }> {
  const registry = settings.enabled ? createMetricsRegistry() : undefined;
  if (!registry && !routes) return { registry, server: { port: undefined, close: async () => undefined } };
  const server = await startMetricsServer({ registry, host, port: settings.port, portIsDefault: settings.portIsDefault, logger, routes });
  return { registry, server };
}
