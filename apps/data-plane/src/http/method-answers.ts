// The methods a path of the data plane's own does not serve. Without this, uWS (and the adapter, which
// routes like it) sent them to the catch-all, which forwards to the control plane: `HEAD /readyz` then
// reported the control plane's readiness instead of this replica's, and `HEAD /v1/credits` was a 404.
// Now, on each exact path registered through `answerOtherMethods`:
// - HEAD on a GET path runs the GET route: its status and headers, without the body;
// - OPTIONS is 200 with `Allow` and no content;
// - any other method is 405 `method_not_allowed` with `Allow` (RFC 9110 §15.5.6).
// (`methodAnswer` in the contracts makes both answers, for both planes.)
// The control plane answers its own paths the same way (apps/control-plane/src/routes/api-router.ts).
import { methodAnswer } from '@voice-router/contracts';
import type { HttpRequest, HttpResponse, ListenSocket, RouteHandler, TemplatedApp } from '../uws.js';
import { respond, statusLine, trackAbort } from './response.js';

export interface MethodAnswers {
  /** Routes registered through it; their paths get the answers above once `finish` runs. */
  app: TemplatedApp;
  /** Registers the answers for every path registered so far (call it before the catch-all). */
  finish(): void;
}

function answerMethod(res: HttpResponse, served: string[], method: string): void {
  const state = trackAbort(res);
  const { allow, body } = methodAnswer(served, method);
  const options = method === 'OPTIONS';
  const status = options ? 200 : 405;
  respond(state, status);
  res.cork(() => {
    res.writeStatus(statusLine(status)).writeHeader('allow', allow);
    if (options) res.end();
    else res.writeHeader('content-type', 'application/json').end(JSON.stringify(body));
  });
}

export function answerOtherMethods(app: TemplatedApp): MethodAnswers {
  const paths = new Map<string, { get?: RouteHandler; methods: string[] }>();
  const note = (pattern: string, method: string, handler: RouteHandler) => {
    if (pattern.includes('*') || pattern.includes(':')) return;
    let entry = paths.get(pattern);
    if (!entry) paths.set(pattern, (entry = { methods: [] }));
    entry.methods.push(method);
    if (method === 'GET') entry.get = handler;
  };
  const registering: TemplatedApp = {
    get: (pattern, handler) => (note(pattern, 'GET', handler), app.get(pattern, handler), registering),
    post: (pattern, handler) => (note(pattern, 'POST', handler), app.post(pattern, handler), registering),
    any: (pattern, handler) => (app.any(pattern, handler), registering),
    listen: (host: string, port: number, callback: (listenSocket: ListenSocket | false) => void) => (app.listen(host, port, callback), registering),
  };
  const finish = () => {
    for (const [pattern, { get, methods }] of paths) {
      app.any(pattern, (res: HttpResponse, req: HttpRequest) => {
        const method = req.getMethod().toUpperCase();
        // Both servers send no body for HEAD (see TemplatedApp.any), so the GET route answers it as it is.
        if (method === 'HEAD' && get) return get(res, req);
        answerMethod(res, methods, method);
      });
    }
    paths.clear();
  };
  return { app: registering, finish };
}
