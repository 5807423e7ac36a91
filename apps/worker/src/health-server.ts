// The worker's probes, on its own small listener (it serves no API): GET /healthz answers while the
// process is alive; GET /readyz answers 200 only while the worker can do its job: its database and
// Redis both answer (within a bound, so a hung dependency fails the probe instead of hanging it) and
// it is not shutting down. The port is METRICS_PORT, where the images' HEALTHCHECK and the Kubernetes
// probes look (infra/); `handleHealthRequest` is exported so a metrics endpoint can share the listener.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HealthChecks {
  /** True once shutdown has begun: /readyz answers 503 `draining` from then on. */
  draining(): boolean;
  /** Resolves when the database answers a query; rejects otherwise. */
  database(): Promise<unknown>;
  /** Resolves when Redis answers PING; rejects otherwise. */
  redis(): Promise<unknown>;
}

/** How long a readiness check waits for a dependency before calling it unreachable. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;

type Readiness = { status: 'ready' } | { status: 'not_ready'; reason: 'draining' | 'database_unreachable' | 'redis_unreachable' };

function within<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.then(() => true, () => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

export async function readiness(checks: HealthChecks, timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<Readiness> {
  if (checks.draining()) return { status: 'not_ready', reason: 'draining' };
  // Both at once: a probe costs the slower of the two, not their sum.
  const [database, redis] = await Promise.all([within(checks.database(), timeoutMs), within(checks.redis(), timeoutMs)]);
  if (!database) return { status: 'not_ready', reason: 'database_unreachable' };
  if (!redis) return { status: 'not_ready', reason: 'redis_unreachable' };
  // Shutdown may have begun while the checks ran.
  return checks.draining() ? { status: 'not_ready', reason: 'draining' } : { status: 'ready' };
}

function sendJson(response: http.ServerResponse, status: number, body: unknown, method: string | undefined): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(method === 'HEAD' ? undefined : text);
}

/** Answers /healthz and /readyz; returns false (and writes nothing) for any other path. */
export function handleHealthRequest(request: http.IncomingMessage, response: http.ServerResponse, checks: HealthChecks): boolean {
  const path = (request.url ?? '').split('?')[0];
  if (path !== '/healthz' && path !== '/readyz') return false;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    response.setHeader('allow', 'GET, HEAD');
    sendJson(response, 405, { error: 'method_not_allowed' }, request.method);
    return true;
  }
  if (path === '/healthz') {
    sendJson(response, 200, { status: 'ok' }, request.method);
    return true;
  }
  readiness(checks).then(
    (result) => sendJson(response, result.status === 'ready' ? 200 : 503, result, request.method),
    () => sendJson(response, 503, { status: 'not_ready', reason: 'internal_error' }, request.method),
  );
  return true;
}

export interface HealthServer {
  /** The port it listens on (the one asked for, or the one chosen for port 0). */
  port: number;
  close(): Promise<void>;
}

export function startHealthServer(options: { host: string; port: number; checks: HealthChecks }): Promise<HealthServer> {
  const server = http.createServer((request, response) => {
    if (!handleHealthRequest(request, response, options.checks)) sendJson(response, 404, { error: 'not_found' }, request.method);
  });
  // Probes are tiny; a client that opens a connection and sends nothing must not hold it for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  return new Promise((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(error.code === 'EADDRINUSE'
        ? new Error(`METRICS_PORT ${options.port} is in use on ${options.host}: the worker's health listener cannot start (set another METRICS_PORT, or 0 for any free port)`)
        : error);
    });
    server.listen(options.port, options.host, () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => {
          server.close(() => done());
          server.closeAllConnections();
        }),
      });
    });
  });
}
