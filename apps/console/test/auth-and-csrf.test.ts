// Sign-up, log-in, cookies, CSRF and `next` handling through real HTTP requests.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from './console-app.js';
import { ConsoleClient, signedUpClient } from './http-client.js';

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

function cookieLine(setCookies: string[], name: string): string {
  const line = setCookies.find((entry) => entry.startsWith(`${name}=`));
  if (!line) throw new Error(`no ${name} cookie in ${JSON.stringify(setCookies)}`);
  return line;
}

describe('pages and headers', () => {
  it('serves the login page with labels, security headers and no-store', async () => {
    running = await startConsole();
    const reply = await new ConsoleClient(running.baseUrl).get('/console/login');
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('<label for="email">Email</label>');
    expect(reply.body).toContain('<label for="password">Password</label>');
    expect(reply.body).toMatch(/<button type="submit">Log in<\/button>/);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(reply.headers.get('content-security-policy')).toBe(
      "default-src 'self'; media-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; form-action 'self'");
    expect(reply.headers.get('x-content-type-options')).toBe('nosniff');
    expect(reply.headers.get('referrer-policy')).toBe('same-origin');
    expect(reply.body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
    expect(reply.body).not.toContain('style=');
  });

  it('serves hashed assets with a long cache and 404s unknown ones', async () => {
    running = await startConsole();
    const client = new ConsoleClient(running.baseUrl);
    const page = await client.get('/console/login');
    const stylesheet = /href="(\/console\/assets\/console\.[0-9a-f]{10}\.css)"/.exec(page.body)?.[1];
    const script = /src="(\/console\/assets\/console\.[0-9a-f]{10}\.js)"/.exec(page.body)?.[1];
    expect(stylesheet).toBeDefined();
    expect(script).toBeDefined();
    const css = await client.get(stylesheet!);
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    expect(css.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await client.get(script!)).headers.get('content-type')).toContain('text/javascript');
    expect((await client.get('/console/assets/console.0000000000.css')).status).toBe(404);
  });

  it('redirects /console to the login page, or to keys once logged in', async () => {
    running = await startConsole();
    expect((await new ConsoleClient(running.baseUrl).get('/console')).location).toBe('/console/login');
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    expect((await client.get('/console')).location).toBe('/console/keys');
  });
});

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/ and not Secure over plain HTTP in auto mode', async () => {
    running = await startConsole({ cookieSecure: 'auto' });
    const client = new ConsoleClient(running.baseUrl);
    await client.get('/console/signup');
    const reply = await client.post('/console/signup', { email: 'ada@example.com', password: 'correct horse battery', next: '/console/wallet' });
    expect(reply.status).toBe(303);
    expect(reply.location).toBe('/console/wallet');
    const line = cookieLine(reply.setCookies, 'vr_console');
    expect(line).toMatch(/; HttpOnly/);
    expect(line).toMatch(/; SameSite=Lax/);
    expect(line).toMatch(/; Path=\//);
    expect(line).toMatch(/; Expires=/);
    expect(line).not.toMatch(/; Secure/);
  });

  it('is Secure in auto mode when the proxy says the request came over HTTPS', async () => {
    running = await startConsole({ cookieSecure: 'auto' });
    const client = new ConsoleClient(running.baseUrl, { 'x-forwarded-proto': 'https' });
    await client.get('/console/signup');
    const reply = await client.post('/console/signup', { email: 'ada@example.com', password: 'correct horse battery' });
    expect(cookieLine(reply.setCookies, 'vr_console')).toMatch(/; Secure/);
  });

  it('is always Secure with cookieSecure true, and never with false', async () => {
    running = await startConsole({ cookieSecure: true });
    const secureClient = new ConsoleClient(running.baseUrl);
    const form = await secureClient.get('/console/signup');
    expect(cookieLine(form.setCookies, 'vr_console_csrf')).toMatch(/; Secure/);
    const reply = await secureClient.post('/console/signup', { email: 'ada@example.com', password: 'correct horse battery' });
    expect(cookieLine(reply.setCookies, 'vr_console')).toMatch(/; Secure/);
    await running.close();

    running = await startConsole({ cookieSecure: false });
    const plainClient = new ConsoleClient(running.baseUrl, { 'x-forwarded-proto': 'https' });
    await plainClient.get('/console/signup');
    const plain = await plainClient.post('/console/signup', { email: 'ada@example.com', password: 'correct horse battery' });
    expect(cookieLine(plain.setCookies, 'vr_console')).not.toMatch(/; Secure/);
  });

  it('logs out: ends the session and clears the cookie', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const token = client.cookies.get('vr_console')!;
    const reply = await client.post('/console/logout', {});
    expect(reply.status).toBe(303);
    expect(reply.location).toBe('/console/login?notice=logged-out');
    expect(await running.services.findSession(decodeURIComponent(token))).toBeUndefined();
    expect((await client.get('/console/keys')).location).toBe('/console/login?next=%2Fconsole%2Fkeys');
  });
});

describe('CSRF', () => {
  it('refuses a signed-in POST with a wrong or missing token and changes nothing', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const wrong = await client.post('/console/keys', { name: 'stolen' }, { csrf: 'not-the-token' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toContain('Form expired');
    const missing = await client.post('/console/keys', { name: 'stolen' }, { csrf: null });
    expect(missing.status).toBe(403);
    expect(running.services.keys.size).toBe(0);
    const loggedOutAttempt = await client.post('/console/logout', {}, { csrf: 'nope' });
    expect(loggedOutAttempt.status).toBe(403);
    expect(client.cookies.has('vr_console')).toBe(true);
  });

  it('refuses log-in and sign-up posts without the pre-session cookie token (login CSRF)', async () => {
    running = await startConsole();
    await signedUpClient(running.baseUrl, 'ada@example.com');
    const attacker = new ConsoleClient(running.baseUrl);
    const login = await attacker.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery' }, { csrf: 'guess' });
    expect(login.status).toBe(403);
    expect(attacker.cookies.has('vr_console')).toBe(false);
    const signup = await attacker.post('/console/signup', { email: 'eve@example.com', password: 'correct horse battery' }, { csrf: null });
    expect(signup.status).toBe(403);
    expect(running.services.users.has('eve@example.com')).toBe(false);
  });

  it('has no path that skips the check', async () => {
    running = await startConsole();
    await signedUpClient(running.baseUrl, 'ada@example.com');
    const attacker = new ConsoleClient(running.baseUrl);
    for (const path of ['/console/login/', '/console/LOGIN', '/console/Login?x=1']) {
      const reply = await attacker.post(path, { email: 'ada@example.com', password: 'correct horse battery' }, { csrf: null });
      expect(reply.status, path).toBe(403);
    }
    expect((await attacker.post('/console/keys', { name: 'x' }, { csrf: null })).status).toBe(403);
    expect(attacker.cookies.has('vr_console')).toBe(false);
  });

  it('marks redirects no-store too', async () => {
    running = await startConsole();
    const reply = await new ConsoleClient(running.baseUrl).get('/console/keys');
    expect(reply.status).toBe(303);
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });
});

describe('log-in and next', () => {
  async function logIn(next: string): Promise<string | null> {
    const client = new ConsoleClient(running!.baseUrl);
    await client.get('/console/login');
    const reply = await client.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery', next });
    expect(reply.status).toBe(303);
    return reply.location;
  }

  it('follows relative /console paths and refuses everything else', async () => {
    running = await startConsole();
    await signedUpClient(running.baseUrl, 'ada@example.com');
    expect(await logIn('/console/usage?days=7')).toBe('/console/usage?days=7');
    expect(await logIn('https://evil.example/console')).toBe('/console/keys');
    expect(await logIn('//evil.example/console/keys')).toBe('/console/keys');
    expect(await logIn('/\\evil.example')).toBe('/console/keys');
  });

  it('keeps a valid next through the login form and drops a bad one', async () => {
    running = await startConsole();
    const client = new ConsoleClient(running.baseUrl);
    const good = await client.get('/console/login?next=%2Fconsole%2Fwallet');
    expect(good.body).toContain('name="next" value="/console/wallet"');
    const bad = await client.get('/console/login?next=https%3A%2F%2Fevil.example');
    expect(bad.body).toContain('name="next" value="/console/keys"');
    expect(bad.body).not.toContain('evil.example');
  });

  it('shows the service message for wrong credentials and for the attempt limit', async () => {
    running = await startConsole();
    await signedUpClient(running.baseUrl, 'ada@example.com');
    const client = new ConsoleClient(running.baseUrl);
    await client.get('/console/login');
    const wrong = await client.post('/console/login', { email: 'ada@example.com', password: 'wrong password!' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('Wrong email or password.');
    expect(wrong.body).toContain('value="ada@example.com"');
    for (let attempt = 0; attempt < 5; attempt++) await client.post('/console/login', { email: 'ada@example.com', password: 'wrong password!' });
    const limited = await client.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery' });
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many attempts');
  });

  it('explains closed sign-up and shows the service refusal', async () => {
    running = await startConsole();
    running.services.signupIsOpen = false;
    const client = new ConsoleClient(running.baseUrl);
    const page = await client.get('/console/signup');
    expect(page.body).toContain('Sign-up is by invitation only');
    expect(page.body).not.toContain('<button type="submit">Sign up</button>');
    // The page shows no form, so post as a hand-made request would, with the cookie's token.
    const csrf = decodeURIComponent(client.cookies.get('vr_console_csrf')!);
    const refused = await client.post('/console/signup', { email: 'eve@example.com', password: 'correct horse battery' }, { csrf });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Sign-up is by invitation only.');
  });

  it('answers oversized forms with a plain 413 page', async () => {
    running = await startConsole();
    const client = new ConsoleClient(running.baseUrl);
    await client.get('/console/login');
    const reply = await client.post('/console/login', { email: 'x'.repeat(20_000) });
    expect(reply.status).toBe(413);
    expect(reply.body).toContain('Request not accepted');
  });
});
