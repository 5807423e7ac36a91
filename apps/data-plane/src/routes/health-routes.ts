// GET /healthz (the process is alive and serving) and GET /readyz (this replica should get traffic:
// not draining, its database answers and, scaled out, so does Redis). Each replica answers them itself, so a load balancer can
// tell a broken or stopping replica from a healthy one; they are never forwarded.
import type { DataPlaneContext } from '../context.js';
import { sendJson, trackAbort } from '../http/response.js';
import type { TemplatedApp } from '../uws.js';

const READINESS_QUERY_TIMEOUT_MS = 2_000;

async function databaseAnswers(context: DataPlaneContext): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      context.sql.query('SELECT 1').then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), READINESS_QUERY_TIMEOUT_MS))),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function registerHealthRoutes(app: TemplatedApp, context: DataPlaneContext): void {
  app.get('/healthz', (res) => sendJson(res, trackAbort(res), 200, { status: 'ok' }));

  app.get('/readyz', (res) => {
    const state = trackAbort(res);
    if (context.inFlight.draining) return sendJson(res, state, 503, { status: 'draining', inFlight: context.inFlight.count });
    void Promise.all([databaseAnswers(context), context.settler.dependenciesReachable()]).then(([database, redis]) => {
      if (!database) return sendJson(res, state, 503, { status: 'not_ready', reason: 'database_unreachable' });
      if (!redis) return sendJson(res, state, 503, { status: 'not_ready', reason: 'redis_unreachable' });
      sendJson(res, state, 200, { status: 'ready' });
    });
  });
}
