// Pages are Preact trees rendered to a string on the server; nothing is hydrated in the browser.
import type { Response, Request, NextFunction } from 'express';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

function contentSecurityPolicy(formActionOrigins: readonly string[] = []): string {
  return [
    "default-src 'self'",
    "img-src 'self' data:",
    "style-src 'self'",
    "script-src 'self'",
    "frame-ancestors 'none'",
    // Browsers hold a form's redirects to form-action too, so a form whose answer sends the browser
    // to the payment processor's hosted page must name that page's origin.
    ['form-action', "'self'", ...formActionOrigins].join(' '),
  ].join('; ');
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
