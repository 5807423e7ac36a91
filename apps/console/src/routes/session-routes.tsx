// The user's own sessions: list, revoke one (the current one logs out), log out everywhere, and change
// the password (which ends every other session).
import express, { type Request, type Response } from 'express';
import { accountCookie, clearCookie, sessionCookie } from '../http/cookies.js';
import { field } from '../http/form.js';
import { clientIp, requireSignedIn, signedIn } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { SessionsPage, type SessionsPageProps } from '../pages/sessions-page.js';
import { noticeText, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

export function sessionRoutes({ services, cookieSecure }: RouteDependencies): express.Router {
  const router = express.Router();
  router.use(['/sessions', '/password'], requireSignedIn(services, '/console/sessions'));

  async function render(response: Response, extra: Omit<SessionsPageProps, 'viewer' | 'sessions'>, status = 200): Promise<void> {
    const { session } = signedIn(response);
    const sessions = await services.listSessions({ userId: session.userId, currentSessionId: session.sessionId });
    sendPage(response, <SessionsPage viewer={viewerOf(response)} sessions={sessions} {...extra} />, status);
  }

  function signOutHere(request: Request, response: Response, notice: string): void {
    clearCookie(request, response, cookieSecure, sessionCookie);
    clearCookie(request, response, cookieSecure, accountCookie);
    response.redirect(303, `/console/login?notice=${notice}`);
  }

  router.get('/sessions', async (request, response) => {
    await render(response, { notice: noticeText(request.query.notice) });
  });

  router.post('/sessions/revoke-all', async (request, response) => {
    await services.revokeAllSessions({ userId: signedIn(response).session.userId });
    signOutHere(request, response, 'logged-out-everywhere');
  });

  router.post('/sessions/:sessionId/revoke', async (request, response) => {
    const { session } = signedIn(response);
    const sessionId = String(request.params.sessionId);
    const result = await services.revokeSession({ userId: session.userId, sessionId });
    if (!result.ok) return render(response, { error: result.message }, statusFor(result));
    if (sessionId === session.sessionId) return signOutHere(request, response, 'logged-out');
    response.redirect(303, '/console/sessions?notice=session-revoked');
  });

  router.post('/password', async (request, response) => {
    const { session } = signedIn(response);
    const result = await services.changePassword({
      userId: session.userId,
      sessionId: session.sessionId,
      currentPassword: field(request, 'current_password', 1024),
      newPassword: field(request, 'new_password', 1024),
      ip: clientIp(request),
    });
    if (!result.ok) return render(response, { passwordError: result.message }, statusFor(result));
    response.redirect(303, '/console/sessions?notice=password-changed');
  });

  return router;
}
