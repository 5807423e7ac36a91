// The console's cookies: the session token, the selected account and the pre-session CSRF token.
// All are HttpOnly and SameSite=Lax; Secure follows the operator's setting or the request's scheme.
import type { Request, Response, CookieOptions } from 'express';

export const sessionCookie = 'vr_console';
export const accountCookie = 'vr_account';
/** Double-submit token for the forms shown before a session exists (log in, sign up). */
export const anonymousCsrfCookie = 'vr_console_csrf';

export type CookieSecure = 'auto' | boolean;

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

export function cookieOptions(request: Request, cookieSecure: CookieSecure, expires?: Date): CookieOptions {
  const secure = cookieSecure === true || (cookieSecure === 'auto' && request.secure);
  return { httpOnly: true, sameSite: 'lax', path: '/', secure, ...(expires ? { expires } : {}) };
}

export function setCookie(request: Request, response: Response, cookieSecure: CookieSecure, name: string, value: string, expires?: Date): void {
  response.cookie(name, value, cookieOptions(request, cookieSecure, expires));
}

export function clearCookie(request: Request, response: Response, cookieSecure: CookieSecure, name: string): void {
  const { expires: _unused, ...options } = cookieOptions(request, cookieSecure);
  response.clearCookie(name, options);
}
