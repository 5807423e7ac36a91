// What every route module shares: its dependencies, the viewer for the layout, Failure checks,
// the HTTP status each Failure reason is shown with, and the fixed texts behind `?notice=`.
import type { Response } from 'express';
import type { ConsoleServices, Failure } from '../console-services.js';
import type { CookieSecure } from '../http/cookies.js';
import { signedIn } from '../http/request-context.js';
import type { Viewer } from '../pages/layout.js';

export interface RouteDependencies {
  services: ConsoleServices;
  cookieSecure: CookieSecure;
}

export function viewerOf(response: Response): Viewer {
  const { session, account, billingEnabled, catalogEnabled } = signedIn(response);
  return { email: session.email, account, csrfToken: session.csrfToken, billingEnabled, catalogEnabled };
}

export function isFailure(value: unknown): value is Failure<string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { ok?: unknown }).ok === false;
}

const statusByReason: Record<string, number> = {
  invalid: 400,
  invalid_email: 400,
  weak_password: 400,
  email_taken: 409,
  signup_closed: 403,
  rate_limited: 429,
  invalid_credentials: 401,
  not_found: 404,
  expired: 410,
  already_decided: 409,
  already_accepted: 409,
  wrong_user: 403,
  forbidden: 403,
  owner: 409,
  declined: 402,
  failed: 402,
  in_progress: 409,
  unavailable: 502,
  insufficient_credit: 402,
  upstream: 502,
};

export function statusFor(failure: Failure<string>): number {
  return statusByReason[failure.reason] ?? 400;
}

// Redirect-after-POST carries a notice id, never free text, so links cannot put words on the page.
const notices: Record<string, string> = {
  'key-revoked': 'Key revoked. Requests using it are refused from now on.',
  'key-updated': 'Key updated. Its new limits apply on every server within a second.',
  'account-switched': 'Switched account.',
  'organization-created': 'Organization created. It has its own wallet and keys.',
  'invitation-accepted': 'Invitation accepted. You are now a member of this organization.',
  'logged-out': 'You have logged out.',
  'logged-out-everywhere': 'You have logged out everywhere: every console and CLI session has ended.',
  'session-revoked': 'Session revoked. That browser or terminal is signed out.',
  'password-changed': 'Password changed. Every other session has ended.',
  'member-removed': 'Member removed. The keys they created for this organization are revoked.',
  'card-added': 'Card added. You can top up with it now.',
  'card-setup-canceled': 'No card was added.',
  'top-up-charged': 'Your card was charged. The wallet is credited as soon as the payment processor confirms the payment, usually within seconds.',
};

export function noticeText(id: unknown): string | undefined {
  return typeof id === 'string' ? notices[id] : undefined;
}
