// Pages are Preact trees rendered to a string on the server; nothing is hydrated in the browser.
import type { Response, Request, NextFunction } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

function contentSecurityPolicy(formActionOrigins: readonly string[] = [], mediaSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    // Audio: the console's own, samples inlined as data: URLs (Voices page) and the providers' preview hosts.
    ['media-src', "'self'", ...mediaSources].join(' '),
    "img-src 'self' data:",
    "style-src 'self'",
    "script-src 'self'",
    "frame-ancestors 'none'",
    // Browsers hold a form's redirects to form-action too, so a form whose answer sends the browser
    // to the payment processor's hosted page must name that page's origin.
    ['form-action', "'self'", ...formActionOrigins].join(' '),
  ].join('; ');
}

/** For the Voices page: sample audio as data: URLs, previews from the providers' own hosts (http/https origins only). */
export function allowMedia(response: Response, origins: readonly string[]): void {
  const safe = [...new Set(origins)].filter((origin) => /^https?:\/\/[a-z0-9.:[\]-]+$/i.test(origin));
  response.set('Content-Security-Policy', contentSecurityPolicy([], ['data:', ...safe]));
}

/** For pages with forms that lead to the payment processor's hosted pages (add a card, 3-D Secure). */
export function allowFormActions(response: Response, origins: readonly string[]): void {
  response.set('Content-Security-Policy', contentSecurityPolicy(origins));
}

export function securityHeaders(_request: Request, response: Response, next: NextFunction): void {
  response.set({
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
    // Pages and redirects are per user; assets replace this with a long public cache.
    'Cache-Control': 'no-store',
  });
  next();
}

export function sendPage(response: Response, page: VNode, status = 200): void {
  response
    .status(status)
    .type('html')
    .set('Cache-Control', 'no-store')
    .send(`<!doctype html>${renderToString(page)}`);
}
