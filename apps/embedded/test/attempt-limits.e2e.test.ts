// Attempt limits through the real HTTP interface, in both run modes: the client address is the
// socket's (a made-up X-Forwarded-For changes nothing; only a trusted proxy's header counts), clients
// at different addresses get separate budgets, log-in limits count failures only, and the device
// approval step is limited like the code look-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, person, poll, signUp, startDeviceLogin } from './accounts-support.js';
import { ConsoleClient } from './console-client.js';
import { requestFrom } from './from-address.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('attempt-limit suites in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

const PROXY = '127.0.0.9';
const DEVICE_CODES_PER_ADDRESS = 60;

async function logIn(baseUrl: string, email: string, password: string) {
  const client = new ConsoleClient(baseUrl);
  const reply = await client.submit('/console/login', /\/console\/login/, { email, password });
  return reply;
}

describe.each(modes)('attempt limits (%s mode)', (mode) => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({ mode, environment: { TRUSTED_PROXIES: PROXY } });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('counts device codes by the socket address: a made-up X-Forwarded-For changes nothing, other addresses have their own budget', async () => {
    // Spread over every replica: the count lives in the one control plane (and, scaled out, in Redis).
    const deviceCode = (from: string, index: number, headers: Record<string, string> = {}) =>
      requestFrom(from, `${system.baseUrls[index % system.baseUrls.length]}/v1/auth/device-code`, { method: 'POST', headers });
    for (let index = 0; index < DEVICE_CODES_PER_ADDRESS; index += 1) {
      const reply = await deviceCode('127.0.0.2', index, { 'x-forwarded-for': `198.51.100.${index}` });
      expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    }
    const refused = await deviceCode('127.0.0.2', 0);
    expect(refused).toMatchObject({ status: 429, body: { error: 'rate_limited' } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3_500);
    expect(retryAfter).toBeLessThanOrEqual(3_600);
    for (const spoof of ['203.0.113.50', '127.0.0.3', '203.0.113.51, 127.0.0.3']) {
      expect((await deviceCode('127.0.0.2', 1, { 'x-forwarded-for': spoof, 'x-real-ip': '203.0.113.52', forwarded: 'for=203.0.113.53' })).status, spoof).toBe(429);
    }
    // Another client on its own address is not locked out by the first one.
    expect((await deviceCode('127.0.0.3', 0)).status).toBe(200);
    expect((await deviceCode('127.0.0.4', 1)).status).toBe(200);
  });

  it('behind a trusted proxy counts the address the proxy reports, and takes its protocol and host', async () => {
    const viaProxy = (client: string, headers: Record<string, string> = {}) =>
      requestFrom(PROXY, `${system.baseUrl}/v1/auth/device-code`, { method: 'POST', headers: { 'x-forwarded-for': client, ...headers } });
    // 127.0.0.2 spent its budget above; the proxy reporting that address is refused, another client is not.
    expect((await viaProxy('127.0.0.2')).status).toBe(429);
    const other = await viaProxy('198.51.100.77', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'voice.example.com' });
    expect(other.status).toBe(200);
    expect(other.body.verification_uri).toBe('https://voice.example.com/console/device');
    // An untrusted client saying the same gets links on the address it really used.
    const direct = await requestFrom('127.0.0.5', `${system.baseUrl}/v1/auth/device-code`, {
      method: 'POST', headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.example.com' },
    });
    expect(direct.body.verification_uri).toBe(`${system.baseUrl}/console/device`);
  });

  it('counts failed log-ins only: repeated successful log-ins never lock a user out, failures do', async () => {
    await signUp(system.baseUrl, `steady-${mode}@example.com`);
    for (let index = 0; index < 12; index += 1) {
      const reply = await logIn(system.baseUrl, `steady-${mode}@example.com`, 'correct horse battery');
      expect(reply.status, `log-in ${index + 1}`).toBe(303);
    }
    await signUp(system.baseUrl, `target-${mode}@example.com`);
    for (let index = 0; index < 10; index += 1) {
      expect((await logIn(system.baseUrl, `target-${mode}@example.com`, `wrong guess ${index}`)).status).toBe(401);
    }
    const locked = await logIn(system.baseUrl, `target-${mode}@example.com`, 'correct horse battery');
    expect(locked.status).toBe(429);
    expect(locked.html).toContain('Too many failed attempts.');
    // The lock is per email: the steady user still gets in.
    expect((await logIn(system.baseUrl, `steady-${mode}@example.com`, 'correct horse battery')).status).toBe(303);
  });

  it('limits wrong codes on the approval step like the look-up; a pending code then stays pending', async () => {
    const guesser = await person(system.baseUrl, `guesser-${mode}@example.com`);
    const pending = await startDeviceLogin(system.baseUrl);
    const page = await guesser.console.get('/console/device');
    const wrongCode = (index: number) => `BBBB-CCC${'DFGHJKLMNP'[index]}`;
    // Ten wrong codes, half on the look-up and half straight on the approval step: one budget.
    for (let index = 0; index < 5; index += 1) {
      const wrong = await guesser.console.submitFromHtml(page.html, '/console/device', /\/console\/device$/, undefined, { user_code: wrongCode(index) });
      expect(wrong.status).toBe(404);
    }
    for (let index = 5; index < 10; index += 1) expect((await postDecide(guesser.console, page.html, wrongCode(index))).status).toBe(404);
    // Now even the right code is refused at either step, and nothing is approved.
    const lookUp = await guesser.console.submitFromHtml(page.html, '/console/device', /\/console\/device$/, undefined, { user_code: pending.user_code });
    expect(lookUp.status).toBe(429);
    const approve = await postDecide(guesser.console, page.html, pending.user_code);
    expect(approve.status).toBe(429);
    expect(approve.html).toContain('Too many wrong codes.');
    expect((await poll(system.baseUrl, pending.device_code)).body).toMatchObject({ error: 'authorization_pending' });
  });
});

/** Posts straight to the approval step (what a script would do, skipping the look-up page). */
async function postDecide(client: ConsoleClient, html: string, userCode: string) {
  const csrf = /name="_csrf" value="([^"]+)"/.exec(html)![1]!;
  const form = `<form method="post" action="/console/device/decide"><input type="hidden" name="_csrf" value="${csrf}"/><button type="submit" name="decision" value="approve">Approve</button></form>`;
  return client.submitFromHtml(form, '/console/device', /\/console\/device\/decide/, 'Approve', { user_code: userCode });
}
