// The API's paths are exact on both planes: `/v1/keys` is served, `/V1/keys` and `/v1/keys/` are 404
// not_found. The data plane's server (uWS, and its node:http adapter) matches that way; Express by default
// ignores case and a trailing slash, so a path the data plane refuses would be served here.
import { Router, type RequestHandler } from 'express';
import { errorBody } from '@voice-router/contracts';

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
