// `next` parameters come from links anyone can craft: only same-origin /console paths are followed,
// so the login page can never become an open redirect.

export const consoleBase = '/console';

export function safeNext(candidate: unknown, fallback = `${consoleBase}/keys`): string {
  if (typeof candidate !== 'string' || candidate.length === 0 || candidate.length > 2048) return fallback;
  // Backslashes and control characters are normalised by browsers into surprises (`/\evil.com`).
  if (/[\\\u0000-\u001f\u007f\s]/.test(candidate)) return fallback;
  if (!/^\/console(?:[/?#]|$)/.test(candidate) || candidate.startsWith('//')) return fallback;
  const base = 'http://console.invalid';
  let parsed: URL;
  try {
    parsed = new URL(candidate, base);
  } catch {
    return fallback;
  }
  if (parsed.origin !== base) return fallback;
  if (!/^\/console(?:\/|$)/.test(parsed.pathname)) return fallback;
  return parsed.pathname + parsed.search + parsed.hash;
}

/** `/console/login?next=…` for a page that needs a logged-in user. */
export function loginUrl(next: string): string {
  return `${consoleBase}/login?next=${encodeURIComponent(next)}`;
}
