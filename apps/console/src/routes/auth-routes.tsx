// Sign up, log in and log out. A successful sign-up or log-in starts a fresh session (a new token,
// so a planted cookie is never promoted) and returns to the validated `next` page.
import express, { type Request, type Response } from 'express';
import { accountCookie, anonymousCsrfCookie, clearCookie, sessionCookie, setCookie } from '../http/cookies.js';
import { anonymousCsrfToken } from '../http/csrf.js';
import { field, queryString } from '../http/form.js';
import { safeNext } from '../http/redirects.js';
import { clientIp, sessionOf, sessionTokenOf } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { LoginPage, SignupPage } from '../pages/auth-pages.js';
import { noticeText, statusFor, type RouteDependencies } from './route-support.js';

const invitationPattern = /^[A-Za-z0-9_-]{1,200}$/;

function invitationFrom(value: string): string | undefined {
  return invitationPattern.test(value) ? value : undefined;
}

export function authRoutes({ services, cookieSecure }: RouteDependencies): express.Router {
  const router = express.Router();

  async function startSession(request: Request, response: Response, userId: string, next: string): Promise<void> {
    const previous = sessionTokenOf(response);
    if (previous) await services.endSession(previous);
    const { token, session } = await services.createSession(userId);
    setCookie(request, response, cookieSecure, sessionCookie, token, session.expiresAt);
    clearCookie(request, response, cookieSecure, accountCookie);
    clearCookie(request, response, cookieSecure, anonymousCsrfCookie);
    response.redirect(303, next);
  }

  router.get('/login', (request, response) => {
    const next = safeNext(queryString(request, 'next', 2048));
    if (sessionOf(response)) return response.redirect(303, next);
    sendPage(response, (
      <LoginPage
        csrfToken={anonymousCsrfToken(request, response, cookieSecure)}
        next={next}
        signupOpen={services.signupOpen()}
        invitationToken={invitationFrom(queryString(request, 'invitation', 200))}
        notice={noticeText(request.query.notice)}
      />
    ));
  });

  router.post('/login', async (request, response) => {
    const next = safeNext(field(request, 'next', 2048));
    const email = field(request, 'email', 320).trim();
    const result = await services.logIn({ email, password: field(request, 'password', 1024), ip: clientIp(request) });
    if (!result.ok) {
      const page = (
        <LoginPage csrfToken={anonymousCsrfToken(request, response, cookieSecure)} next={next} email={email}
          signupOpen={services.signupOpen()} error={result.message} />
      );
      return sendPage(response, page, statusFor(result));
    }
    await startSession(request, response, result.user.userId, next);
  });

  router.get('/signup', (request, response) => {
    const next = safeNext(queryString(request, 'next', 2048));
    if (sessionOf(response)) return response.redirect(303, next);
    const invitationToken = invitationFrom(queryString(request, 'invitation', 200));
    sendPage(response, (
      <SignupPage csrfToken={anonymousCsrfToken(request, response, cookieSecure)} next={next}
        invitationToken={invitationToken} allowed={services.signupOpen() || invitationToken !== undefined} />
    ));
  });

  router.post('/signup', async (request, response) => {
    const next = safeNext(field(request, 'next', 2048));
    const email = field(request, 'email', 320).trim();
    const invitationToken = invitationFrom(field(request, 'invitation', 200));
    const result = await services.signUp({
      email, password: field(request, 'password', 1024), ip: clientIp(request),
      ...(invitationToken ? { invitationToken } : {}),
    });
    if (!result.ok) {
      const page = (
        <SignupPage csrfToken={anonymousCsrfToken(request, response, cookieSecure)} next={next} email={email}
          invitationToken={invitationToken} allowed={services.signupOpen() || invitationToken !== undefined} error={result.message} />
      );
      return sendPage(response, page, statusFor(result));
    }
    await startSession(request, response, result.user.userId, next);
  });

  router.post('/logout', async (request, response) => {
    const token = sessionTokenOf(response);
    if (token) await services.endSession(token);
    clearCookie(request, response, cookieSecure, sessionCookie);
    clearCookie(request, response, cookieSecure, accountCookie);
    response.redirect(303, '/console/login?notice=logged-out');
  });

  return router;
}
