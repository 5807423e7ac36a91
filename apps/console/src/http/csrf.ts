// CSRF: every POST carries `_csrf`. With a session it must equal the session's synchronizer token;
// before one exists (log in, sign up) it must equal a random cookie (double submit), which stops
// login CSRF too. Comparison is constant-time so the token cannot be guessed byte by byte.
import { randomBytes, timingSafeEqual, createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { anonymousCsrfCookie, readCookie, setCookie, type CookieSecure } from './cookies.js';

export function tokensEqual(given: string, expected: string): boolean {
  if (!given || !expected) return false;
  // Hashing first gives equal lengths, so timingSafeEqual never throws and length leaks nothing.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The anonymous token for pre-session forms; set the cookie when there is none yet. */
export function anonymousCsrfToken(request: Request, response: Response, cookieSecure: CookieSecure): string {
  const existing = readCookie(request, anonymousCsrfCookie);
  if (existing && /^[A-Za-z0-9_-]{32,64}$/.test(existing)) return existing;
  const token = randomBytes(24).toString('base64url');
  setCookie(request, response, cookieSecure, anonymousCsrfCookie, token);
  return token;
}

export function anonymousCsrfValid(request: Request, given: string): boolean {
  return tokensEqual(given, readCookie(request, anonymousCsrfCookie) ?? '');
}
