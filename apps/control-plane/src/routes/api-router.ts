// The API's paths are exact on both planes: `/v1/keys` is served, `/V1/keys` and `/v1/keys/` are 404
// not_found. The data plane's server (uWS, and its node:http adapter) matches that way; Express by default
// ignores case and a trailing slash, so a path the data plane refuses would be served here.
import { Router } from 'express';

/** The options every API router of the control plane (and the app itself) is created with. */
export const EXACT_PATHS = { caseSensitive: true, strict: true } as const;

/** An Express router whose routes match only the exact path. */
export function apiRouter(): Router {
  return Router(EXACT_PATHS);
}
