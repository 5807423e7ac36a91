// Gives every request of a route its route-template counter, at registration time: a request pays one
// property store, and the response helpers count its status once (see `respond` in http/response.ts).
import type { HttpRequest, HttpResponse, ListenSocket, RouteHandler, TemplatedApp } from '../uws.js';
import type { DataPlaneMetrics, RouteMetrics } from './data-plane-metrics.js';

export const ROUTE_METRICS = Symbol('route metrics');
export type CountedResponse = HttpResponse & { [ROUTE_METRICS]?: RouteMetrics };

/** The app itself when metrics are off: nothing is wrapped and no request pays anything. */
export function countRoutes(app: TemplatedApp, metrics: DataPlaneMetrics): TemplatedApp {
  if (!metrics.enabled) return app;
  const wrap = (pattern: string, handler: RouteHandler): RouteHandler => {
    const route = metrics.route(pattern)!;
    return (res: HttpResponse, req: HttpRequest) => {
      (res as CountedResponse)[ROUTE_METRICS] = route;
      return handler(res, req);
    };
  };
  const counted: TemplatedApp = {
    get: (pattern, handler) => (app.get(pattern, wrap(pattern, handler)), counted),
    post: (pattern, handler) => (app.post(pattern, wrap(pattern, handler)), counted),
    any: (pattern, handler) => (app.any(pattern, wrap(pattern, handler)), counted),
    listen: (host: string, port: number, callback: (listenSocket: ListenSocket | false) => void) => (app.listen(host, port, callback), counted),
  };
  return counted;
}
