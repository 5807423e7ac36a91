// `vr sessions list|revoke` and `vr logout --all` against the real embedded service. CLI sessions
// come from `vr login --no-browser`, approved through the console's own forms over plain HTTP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CapturedStream, runVr } from './capture-output.js';
import { startService, type RunningService } from './running-service.js';

let service: RunningService;
let scratch: string;

/** A browser without JavaScript: cookies and the hidden CSRF field of the last page. */
class ConsoleForms {
  private cookies = new Map<string, string>();
  private lastPage = '';
  constructor(private readonly baseUrl: string) {}

  async request(pathname: string, form?: Record<string, string>): Promise<{ status: number; location: string | null }> {
    const body = form ? new URLSearchParams({ ...form, _csrf: /name="_csrf" value="([^"]+)"/.exec(this.lastPage)?.[1] ?? '' }) : undefined;
    const response = await fetch(`${this.baseUrl}${pathname}`, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const [name = '', value = ''] = pair.split('=');
      if (value) this.cookies.set(name.trim(), value);
      else this.cookies.delete(name.trim());
    }
    const text = await response.text();
    if (!form) this.lastPage = text;
    return { status: response.status, location: response.headers.get('location') };
  }
}

async function signUp(email: string): Promise<ConsoleForms> {
  const browser = new ConsoleForms(service.baseUrl);
  await browser.request('/console/signup');
  const signedUp = await browser.request('/console/signup', { email, password: 'correct horse battery', next: '/console/keys' });
  expect(signedUp.status).toBe(303);
  return browser;
}

/** `vr login` in a config directory of its own, approved in `browser`. */
async function login(browser: ConsoleForms, name: string): Promise<Record<string, string>> {
  const env = { VR_CONFIG_DIR: path.join(scratch, name), VR_BASE_URL: service.baseUrl };
  const stdout = new CapturedStream();
  const finished = runVr(['login', '--no-browser'], { env, stdout });
  let userCode: string | undefined;
  for (let waited = 0; !userCode && waited < 30_000; waited += 50) {
    userCode = /^\s+([A-Z]{4}-[A-Z]{4})$/m.exec(stdout.text)?.[1];
    if (!userCode) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(userCode, stdout.text).toBeDefined();
  await browser.request(`/console/device?user_code=${userCode}`);
  expect((await browser.request('/console/device/decide', { user_code: userCode!, decision: 'approve' })).status).toBe(200);
  const run = await finished;
  expect(run.exitCode, run.stderr).toBe(0);
  return env;
}

const storedToken = (env: Record<string, string>) => JSON.parse(fs.readFileSync(path.join(env.VR_CONFIG_DIR!, 'config.json'), 'utf8')).sessionToken as string | undefined;

beforeAll(async () => {
  service = await startService();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-sessions-'));
});

afterAll(async () => {
  await service?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('vr sessions and vr logout --all', () => {
  it('lists sessions without tokens, revokes another one and its own, then logs out everywhere', async () => {
    const browser = await signUp('sessions@example.com');
    const laptop = await login(browser, 'laptop');
    const server = await login(browser, 'server');

    const listed = await runVr(['sessions', 'list', '--json'], { env: laptop });
    expect(listed.exitCode, listed.stderr).toBe(0);
    const sessions = JSON.parse(listed.stdout).sessions as Array<{ id: string; kind: string; current: boolean; created_at: string; expires_at: string }>;
    expect(sessions.map((session) => session.kind).sort()).toEqual(['cli', 'cli', 'console']);
    expect(sessions.filter((session) => session.current)).toHaveLength(1);
    expect(listed.stdout).not.toContain(storedToken(laptop)!);
    expect(listed.stdout).not.toContain(storedToken(server)!);
    const table = await runVr(['sessions', 'list'], { env: laptop });
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+KIND\s+CREATED\s+EXPIRES\s+CURRENT$/);
    expect(table.stdout).toMatch(/\scli\s.*yes \(this CLI\)$/m);

    const serverSessionId = (JSON.parse((await runVr(['sessions', 'list', '--json'], { env: server })).stdout).sessions as typeof sessions)
      .find((session) => session.current)!.id;
    const revoked = await runVr(['sessions', 'revoke', serverSessionId], { env: laptop });
    expect(revoked.exitCode, revoked.stderr).toBe(0);
    expect(revoked.stdout).toBe(`Revoked session ${serverSessionId}.\n`);
    const refused = await runVr(['whoami'], { env: server });
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/Not logged in or the session expired/);
    const again = await runVr(['sessions', 'revoke', serverSessionId], { env: laptop });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/no active session of yours with that id/);

    const spare = await login(browser, 'spare');
    const spareId = (JSON.parse((await runVr(['sessions', 'list', '--json'], { env: spare })).stdout).sessions as typeof sessions)
      .find((session) => session.current)!.id;
    const own = await runVr(['sessions', 'revoke', spareId], { env: spare });
    expect(own.stdout).toBe(`Revoked session ${spareId}, the one this CLI was using: you are logged out.\n`);
    expect(storedToken(spare)).toBeUndefined();

    expect((await browser.request('/console/sessions')).status).toBe(200);
    const everywhere = await runVr(['logout', '--all'], { env: laptop });
    expect(everywhere.exitCode, everywhere.stderr).toBe(0);
    expect(everywhere.stdout).toBe('Logged out everywhere: 2 sessions ended.\n');
    expect(storedToken(laptop)).toBeUndefined();
    // The console session ended too: the browser is sent to log in.
    expect((await browser.request('/console/sessions')).status).toBe(303);
  });
});
