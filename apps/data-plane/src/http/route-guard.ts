// No request can take the process down: every route is registered through this guard, which turns a
// handler's synchronous throw or rejected promise into a 500 for that request alone (or a closed
// connection once headers went out) and logs it once. It wraps at registration time, so a request
// pays one try/catch and no allocation; it holds for both servers (native uWS and node:http).
import type { Logger } from '@voice-router/service-kit';
import type { HttpRequest, HttpResponse, ListenSocket, RouteHandler, TemplatedApp } from '../uws.js';
import { failRequest } from './response.js';

export function guardRoutes(app: TemplatedApp, logger: Logger): TemplatedApp {
  const guard = (pattern: string, handler: RouteHandler): RouteHandler => {
    const fail = (res: HttpResponse, error: unknown) => {
      logger.error('request failed with an uncaught error', { route: pattern, error });
      failRequest(res);
    };
    return (res: HttpResponse, req: HttpRequest) => {
      try {
        const result = handler(res, req);
        if (result !== undefined) result.catch((error: unknown) => fail(res, error));
      } catch (error) {
        fail(res, error);
      }
    };
  };
  const guarded: TemplatedApp = {
    get: (pattern, handler) => (app.get(pattern, guard(pattern, handler)), guarded),
    post: (pattern, handler) => (app.post(pattern, guard(pattern, handler)), guarded),
    any: (pattern, handler) => (app.any(pattern, guard(pattern, handler)), guarded),
    listen: (host: string, port: number, callback: (listenSocket: ListenSocket | false) => void) => (app.listen(host, port, callback), guarded),
  };
  return guarded;
}
