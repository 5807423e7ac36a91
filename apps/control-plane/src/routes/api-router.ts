// The API's paths are exact on both planes: `/v1/keys` is served, `/V1/keys` and `/v1/keys/` are 404
// not_found. The data plane's server (uWS, and its node:http adapter) matches that way; Express by default
// ignores case and a trailing slash, so a path the data plane refuses would be served here.
import { Router, type Express, type RequestHandler } from 'express';
import { errorBody, methodAnswer } from '@voice-router/contracts';

/** The options every API router of the control plane (and the app itself) is created with. */
export const EXACT_PATHS = { caseSensitive: true, strict: true } as const;

/** An Express router whose routes match only the exact path. */
export function apiRouter(): Router {
  return Router(EXACT_PATHS);
}

/** The answer to a path nothing serves, on both planes. */
export const NO_SUCH_ENDPOINT = errorBody('not_found', 'no such endpoint');

/**
 * Express routes on the path Node's legacy URL parser makes of the request target (`request.path`),
 * which drops a `#fragment` (`/v1/keys#x` is routed as `/v1/keys`) and trims whitespace around it; the
 * data plane routes on the target's path as it arrived, up to its `?`. A target whose path is not
 * exactly the one Express would route on is answered as an unknown path, so both planes agree. (A
 * fragment is never part of a request target, RFC 9112 §3.2; browsers and HTTP clients strip it.)
 */
export function exactTargets(): RequestHandler {
  return (request, response, next) => {
    const target = request.url;
    // Only the origin form (`/path?query`): an absolute-form target (`http://host/path`, which a server
    // must accept, RFC 9112 §3.2.2) is routed by the path Express parses from it, as the adapter does.
    if (target.charCodeAt(0) !== 0x2f) return next();
    const query = target.indexOf('?');
    const path = query === -1 ? target : target.slice(0, query);
    if (path === request.path) return next();
    response.status(404).json(NO_SUCH_ENDPOINT);
  };
}

interface ListedRoute {
  path: string | RegExp;
  methods?: string[];
  router?: { listRoutes?: () => ListedRoute[] };
}

/** The API paths (and probes) the app's routes serve, with their methods; the console's are left out. */
function servedApiPaths(app: Express): Array<{ matches: (path: string) => boolean; methods: Set<string> }> {
  const byPattern = new Map<string, Set<string>>();
  const walk = (routes: ListedRoute[]) => {
    for (const route of routes) {
      if (route.router) {
        // Routers mounted at the root hold API routes; the console is mounted at /console.
        if (route.path === '/' && route.router.listRoutes) walk(route.router.listRoutes());
        continue;
      }
      if (typeof route.path !== 'string' || !route.methods || !/^\/(v1\/|healthz$|readyz$)/.test(route.path)) continue;
      let methods = byPattern.get(route.path);
      if (!methods) byPattern.set(route.path, (methods = new Set()));
      for (const method of route.methods) if (method !== '*') methods.add(method);
    }
  };
  walk((app.router as unknown as { listRoutes(): ListedRoute[] }).listRoutes());
  return [...byPattern].map(([pattern, methods]) => {
    // Express's `:name` is one whole, non-empty segment; everything else is literal (the paths are plain).
    const expression = new RegExp(`^${pattern.split(/(:[A-Za-z_]\w*)/).map((part) => (part.startsWith(':') ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('')}$`);
    return { matches: (path: string) => expression.test(path), methods };
  });
}

/**
 * The answers for a method an API path does not serve, before any body is read (contracts'
 * `methodAnswer`): OPTIONS is 200 with `Allow` and no content, any other method 405 `method_not_allowed`
 * with `Allow` (RFC 9110 §15.5.6). The paths and their methods are read from the app's own routes
 * (router's `listRoutes`, HEAD included wherever GET is) on the first request, so they cannot drift from
 * what is served. The data plane answers its own paths the same way (apps/data-plane/src/http/
 * method-answers.ts); unknown paths stay 404 not_found.
 */
export function otherMethods(app: Express): RequestHandler {
  let served: ReturnType<typeof servedApiPaths> | undefined;
  return (request, response, next) => {
    served ??= servedApiPaths(app);
    const methods = new Set<string>();
    for (const entry of served) if (entry.matches(request.path)) for (const method of entry.methods) methods.add(method);
    if (methods.size === 0 || (methods.has(request.method) && request.method !== 'OPTIONS')) return next();
    const { allow, body } = methodAnswer(methods, request.method);
    response.set('allow', allow);
    if (request.method === 'OPTIONS') return void response.status(200).set('content-length', '0').end();
    response.status(405).json(body);
  };
}
