// The device-flow client against a scripted server: interval, slow_down, denial and what is stored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVr } from '../../test/capture-output.js';

const grant = {
  device_code: 'vr_device_x', user_code: 'ABCD-EFGH', verification_uri: 'http://h/console/device',
  verification_uri_complete: 'http://h/console/device?user_code=ABCD-EFGH', expires_in: 600, interval: 5,
};

function scriptedServer(pollAnswers: Array<[number, unknown]>) {
  const calls: Array<{ path: string; body: string; authorization: string | null }> = [];
  const fetch = async (input: string | URL | Request) => {
    const request = input as Request;
    const { pathname } = new URL(request.url);
    calls.push({ path: pathname, body: await request.text(), authorization: request.headers.get('authorization') });
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    if (pathname === '/v1/auth/device-code') return json(200, grant);
    if (pathname === '/v1/auth/poll') return json(...pollAnswers.shift()!);
    if (pathname === '/v1/auth/whoami') return json(200, { user_id: 'u1', auth: 'session', email: 'ada@example.com' });
    return json(404, { error: 'not_found' });
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

let configDirectory: string;
beforeEach(() => {
  configDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-login-'));
});
afterEach(() => fs.rmSync(configDirectory, { recursive: true, force: true }));

describe('vr login', () => {
  it('polls at the interval, adds 5 s on slow_down, then stores the token 0600 and greets by email', async () => {
    const server = scriptedServer([
      [400, { error: 'authorization_pending' }],
      [400, { error: 'slow_down' }],
      [400, { error: 'authorization_pending' }],
      [200, { session_token: 'vr_session_abc', expires_at: '2030-01-01T00:00:00.000Z', user_id: 'u1' }],
    ]);
    const waits: number[] = [];
    const opened: string[] = [];
    const run = await runVr(['login', '--base-url', 'http://h', '--org', 'personal'], {
      env: { VR_CONFIG_DIR: configDirectory },
      fetch: server.fetch,
      sleep: async (milliseconds) => void waits.push(milliseconds),
      openBrowser: async (url) => (opened.push(url), true),
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(waits).toEqual([5000, 5000, 10_000, 10_000]);
    expect(opened).toEqual([grant.verification_uri_complete]);
    expect(run.stdout).toContain('ABCD-EFGH');
    expect(run.stdout).toContain(grant.verification_uri_complete);
    expect(run.stdout).toContain('Logged in as ada@example.com (user u1)');
    // Not a terminal: one dot per unanswered poll.
    expect(run.stderr).toContain('Waiting for approval in the browser...\n');
    expect(server.calls.filter((call) => call.path === '/v1/auth/poll').map((call) => JSON.parse(call.body))).toEqual(
      Array(4).fill({ device_code: 'vr_device_x' }),
    );
    expect(server.calls.at(-1)!.authorization).toBe('Bearer vr_session_abc');
    const file = path.join(configDirectory, 'config.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({
      baseUrl: 'http://h', sessionToken: 'vr_session_abc', sessionExpiresAt: '2030-01-01T00:00:00.000Z', userId: 'u1', organization: 'personal',
    });
  });

  it('stops with a clear message when the user denies, and stores nothing', async () => {
    const server = scriptedServer([[400, { error: 'authorization_pending' }], [403, { error: 'access_denied' }]]);
    const run = await runVr(['login', '--no-browser', '--base-url', 'http://h'], {
      env: { VR_CONFIG_DIR: configDirectory }, fetch: server.fetch, sleep: async () => undefined,
      openBrowser: async () => expect.unreachable('--no-browser must not open one'),
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toContain('error: The login was denied in the browser. Run `vr login` again to retry.');
    expect(fs.existsSync(path.join(configDirectory, 'config.json'))).toBe(false);
  });

  it('reports an expired code', async () => {
    const server = scriptedServer([[410, { error: 'expired_token' }]]);
    const run = await runVr(['login', '--no-browser', '--base-url', 'http://h'], {
      env: { VR_CONFIG_DIR: configDirectory }, fetch: server.fetch, sleep: async () => undefined,
    });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/login code expired or was already used.*vr login/);
  });

  it('tells the user when the server has no login at all', async () => {
    const fetch = (async () => new Response('Cannot POST', { status: 404 })) as unknown as typeof globalThis.fetch;
    const run = await runVr(['login', '--base-url', 'http://h'], { env: { VR_CONFIG_DIR: configDirectory }, fetch });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/does not offer login.*--api-key/);
  });
});
