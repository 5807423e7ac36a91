// The console as one Express router, mounted by the control plane under /console. Order matters:
// security headers and assets first, then form parsing, the session, the CSRF guard, the pages,
// and last a handler that turns failures into plain pages.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { ConsoleServices } from './console-services.js';
import { serveAsset } from './http/assets.js';
import type { CookieSecure } from './http/cookies.js';
import { anonymousCsrfValid, tokensEqual } from './http/csrf.js';
import { field } from './http/form.js';
import { sendPage, securityHeaders } from './http/render.js';
import { loadSession, sessionOf } from './http/request-context.js';
import { MessagePage } from './pages/message-page.js';
import { authRoutes } from './routes/auth-routes.js';
import { billingRoutes } from './routes/billing-routes.js';
import { deviceRoutes } from './routes/device-routes.js';
import { keysRoutes } from './routes/keys-routes.js';
import { organizationRoutes } from './routes/organization-routes.js';
import { sessionRoutes } from './routes/session-routes.js';
import { walletUsageRoutes } from './routes/wallet-usage-routes.js';
import { voicesRoutes } from './routes/voices-routes.js';

export interface ConsoleRouterOptions {
  /** `true` always marks cookies Secure, `false` never, `'auto'` when the request came over HTTPS. */
  cookieSecure: CookieSecure;
  /** Receives unexpected errors (a service threw); the visitor sees a plain error page. */
  onError?: (error: unknown, request: Request) => void;
}

// Every POST needs a token: the session's when logged in, else the pre-session cookie's (log in,
// sign up). No path is exempt, so no spelling of a URL (`/login/`, `/LOGIN`) can skip the check.
function csrfGuard(request: Request, response: Response, next: NextFunction): void {
  if (request.method !== 'POST') return next();
  const given = field(request, '_csrf', 200);
  const session = sessionOf(response);
  if (session ? tokensEqual(given, session.csrfToken) : anonymousCsrfValid(request, given)) return next();
  sendPage(response, (
    <MessagePage title="Form expired" message="This form has expired or did not come from this console, so nothing was changed. Go back, reload the page and try again." />
  ), 403);
}

export function createConsoleRouter(services: ConsoleServices, options: ConsoleRouterOptions): express.Router {
  const dependencies = { services, cookieSecure: options.cookieSecure };
  const router = express.Router();
  router.use(securityHeaders);
  router.get('/assets/:name', serveAsset);
  router.use(express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  router.use(loadSession(services));
  router.use(csrfGuard);

  router.get('/', (_request, response) => {
    response.redirect(303, sessionOf(response) ? '/console/keys' : '/console/login');
  });
  router.use(authRoutes(dependencies));
  router.use(deviceRoutes(dependencies));
  router.use(keysRoutes(dependencies));
  router.use(walletUsageRoutes(dependencies));
  router.use(voicesRoutes(dependencies));
  router.use(billingRoutes(dependencies));
  router.use(organizationRoutes(dependencies));
  router.use(sessionRoutes(dependencies));

  router.use((_request: Request, response: Response) => {
    sendPage(response, <MessagePage title="Page not found" message="There is no console page at this address." />, 404);
  });
  // Express recognises error handlers by their four parameters.
  router.use((error: unknown, request: Request, response: Response, _next: NextFunction) => {
    const status = typeof (error as { status?: unknown }).status === 'number' ? (error as { status: number }).status : 500;
    if (status >= 500) (options.onError ?? ((failure) => console.error('console error', failure)))(error, request);
    if (response.headersSent) return;
    const clientError = status >= 400 && status < 500;
    sendPage(response, (
      <MessagePage
        title={clientError ? 'Request not accepted' : 'Something went wrong'}
        message={clientError ? 'The form could not be read (it may be too large). Go back and try again.' : 'The console could not complete this request. Try again in a moment.'}
      />
    ), clientError ? status : 500);
  });
  return router;
}
