// Per-request state: who is logged in (from the session cookie) and which account they act for
// (from the account cookie, re-checked against their memberships on every request).
import type { NextFunction, Request, Response } from 'express';
import type { ConsoleAccount, ConsoleServices, ConsoleSession } from '../console-services.js';
import { accountCookie, readCookie, sessionCookie } from './cookies.js';
import { loginUrl, consoleBase } from './redirects.js';

export interface SignedIn {
  session: ConsoleSession;
  sessionToken: string;
  accounts: ConsoleAccount[];
  account: ConsoleAccount;
  billingEnabled: boolean;
  catalogEnabled: boolean;
}

interface Locals {
  session?: ConsoleSession;
  sessionToken?: string;
  signedIn?: SignedIn;
}

function locals(response: Response): Locals {
  return response.locals as Locals;
}

export function sessionOf(response: Response): ConsoleSession | undefined {
  return locals(response).session;
}

export function sessionTokenOf(response: Response): string | undefined {
  return locals(response).sessionToken;
}

/** Only valid after `requireSignedIn`. */
export function signedIn(response: Response): SignedIn {
  const value = locals(response).signedIn;
  if (!value) throw new Error('requireSignedIn must run before this handler');
  return value;
}

export function loadSession(services: ConsoleServices) {
  return async (request: Request, response: Response, next: NextFunction): Promise<void> => {
    const token = readCookie(request, sessionCookie);
    // Session tokens are opaque; bound the length so junk cookies never reach the store.
    if (token && token.length <= 512) {
      const session = await services.findSession(token);
      if (session && session.expiresAt.getTime() > Date.now()) {
        locals(response).session = session;
        locals(response).sessionToken = token;
      }
    }
    next();
  };
}

export function chooseAccount(accounts: ConsoleAccount[], wanted: string | undefined): ConsoleAccount | undefined {
  return accounts.find((account) => account.accountId === wanted)
    ?? accounts.find((account) => account.kind === 'personal')
    ?? accounts[0];
}

/** Pages behind login: logged-out visitors go to the login page and come back afterwards. */
export function requireSignedIn(services: ConsoleServices, afterPost = `${consoleBase}/keys`) {
  return async (request: Request, response: Response, next: NextFunction): Promise<void> => {
    const session = sessionOf(response);
    const token = sessionTokenOf(response);
    if (!session || !token) {
      // After a POST the original page is the safer place to return to than the action URL.
      const back = request.method === 'GET' || request.method === 'HEAD' ? request.originalUrl : afterPost;
      response.redirect(303, loginUrl(back));
      return;
    }
    const accounts = await services.listAccounts(session.userId);
    const account = chooseAccount(accounts, readCookie(request, accountCookie));
    if (!account) throw new Error(`user ${session.userId} has no account`);
    locals(response).signedIn = { session, sessionToken: token, accounts, account, billingEnabled: Boolean(services.billing), catalogEnabled: Boolean(services.catalog) };
    next();
  };
}

/** Absolute origin the visitor used, for links shown to them (invitations). */
export function baseUrlOf(request: Request): string {
  // With `trust proxy` on loopback, Express reads X-Forwarded-Host/Proto from the data plane.
  return `${request.protocol}://${request.host}`;
}

export function clientIp(request: Request): string {
  return request.ip ?? request.socket.remoteAddress ?? 'unknown';
}
