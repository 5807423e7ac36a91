// The whole login story with a real browser: `vr login --no-browser` runs in-process, headless
// Chromium signs up in the console and approves the printed link, then the session drives the rest
// of the CLI (keys, a top-up by the operator, speech, usage, organizations, logout). A second login
// is denied in the browser. Skips, saying why, where the server has no device flow or no Chromium.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { announceSkip, parseMp3Frames } from '@voice-router/test-support';
import { answerInBrowser, CHROMIUM, CHROMIUM_ARGS, signUp as signUpAt, startLogin as startLoginWith } from './browser-login.js';
import { CapturedStream, runVr, runVrUntil } from './capture-output.js';
import { startService, type RunningService } from './running-service.js';

const SUITE = 'cli login end to end';

let service: RunningService;
let browser: Browser | undefined;
let scratch: string;
let env: Record<string, string>;
let skipReason: string | undefined;

beforeAll(async () => {
  service = await startService();
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-login-'));
  env = { VR_CONFIG_DIR: path.join(scratch, 'config'), VR_BASE_URL: service.baseUrl };
  const probe = await fetch(`${service.baseUrl}/v1/auth/device-code`, { method: 'POST' });
  if (probe.status === 404) skipReason = 'the server answers 404 to POST /v1/auth/device-code (no device flow yet)';
  else if (!fs.existsSync(CHROMIUM)) skipReason = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set VR_TEST_CHROMIUM)`;
  else browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  if (skipReason) announceSkip(SUITE, skipReason);
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

const vr = (...argv: string[]) => runVr(argv, { env });
const startLogin = () => startLoginWith(env);
const signUp = (page: Page, email: string, password: string) => signUpAt(page, service.baseUrl, email, password);

describe(SUITE, () => {
  it('logs in through the browser, then keys, speech, usage, organizations and logout work', async (context) => {
    if (skipReason) return context.skip();
    const email = `cli-login-${Date.now()}@example.com`;
    const page = await browser!.newPage();
    await signUp(page, email, 'correct horse battery staple');

    const login = await startLogin();
    await answerInBrowser(page, login.completeUri, login.userCode, 'Approve');
    const loggedIn = await login.finished;
    expect(loggedIn.exitCode, loggedIn.stderr).toBe(0);
    expect(loggedIn.stdout).toContain(`Logged in as ${email}`);
    expect(loggedIn.stderr).toMatch(/^Waiting for approval in the browser\.*\n$/);
    const configFile = path.join(env.VR_CONFIG_DIR!, 'config.json');
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    expect(fs.statSync(env.VR_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    const sessionToken = JSON.parse(fs.readFileSync(configFile, 'utf8')).sessionToken as string;
    expect(sessionToken).toMatch(/^vr_session_/);

    const whoami = await vr('whoami');
    expect(whoami.exitCode, whoami.stderr).toBe(0);
    expect(whoami.stdout).toContain(`Logged in as ${email}`);
    expect(JSON.parse((await vr('whoami', '--json')).stdout)).toMatchObject({ auth: 'session', email });
    // The catalog takes the login session too.
    for (const command of ['status', 'providers', 'voices']) {
      const listed = await vr(command, '--json');
      expect(listed.exitCode, listed.stderr).toBe(0);
      expect(Object.values(JSON.parse(listed.stdout) as Record<string, unknown[]>)[0]!.length).toBeGreaterThan(0);
    }

    // A session is the wrong credential for speech, whichever way it is passed.
    expect((await vr('say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', '-')).stderr).toContain('needs an API key (pk_…)');
    const wrongKind = await vr('say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', '-', '--api-key', sessionToken);
    expect(wrongKind.exitCode).toBe(1);
    expect(wrongKind.stderr).toMatch(/^error: This command needs an API key \(pk_…\), not a login session/);

    const created = await vr('keys', 'create', '--name', 'laptop', '--save');
    expect(created.exitCode, created.stderr).toBe(0);
    expect(created.stdout).toMatch(/Secret \(shown only now, store it safely\): pk_\S+/);
    expect(created.stdout).toContain(`Saved to ${configFile}`);
    const savedKey = JSON.parse(fs.readFileSync(configFile, 'utf8')).apiKey as string;
    expect(created.stdout).toContain(savedKey);
    expect(fs.statSync(configFile).mode & 0o777).toBe(0o600);
    const listed = await vr('keys', 'list');
    expect(listed.stdout).toMatch(new RegExp(`\\slaptop\\s+…${savedKey.slice(-4)}\\s`));
    const keyId = JSON.parse((await vr('keys', 'list', '--json')).stdout).keys[0].id as string;

    await service.admin('grant', '--email', email, '--usd', '1.25');
    expect((await vr('credits')).stdout).toContain('Balance    $1.25');

    const file = path.join(scratch, 'login.mp3');
    const say = await vr('say', 'Logged in and speaking', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', file);
    expect(say.exitCode, say.stderr).toBe(0);
    expect(parseMp3Frames(fs.readFileSync(file)).frames).toBeGreaterThan(5);

    // Settlement is asynchronous: the commit (and so the usage row) lands shortly after the stream
    // ends, later on a busy machine. Read the usage until it is there, as a user re-running it would.
    const usage = await runVrUntil(['usage', '--days', '7'], { env }, (run) => /^Requests\s+[1-9]/m.test(run.stdout));
    expect(usage.exitCode, usage.stderr).toBe(0);
    expect(usage.stdout).toMatch(/^Requests\s+1$/m);
    expect(usage.stdout).toMatch(/^local\s+1\s+\$0\.00$/m);
    expect(JSON.parse((await vr('usage', '--json')).stdout).totals).toMatchObject({ requests: 1, errorCount: 0 });

    const revoked = await vr('keys', 'revoke', keyId);
    expect(revoked.stdout).toBe(`Revoked key ${keyId}.\n`);
    expect((await vr('say', 'gone', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', file)).stderr).toContain('The API key was not accepted');
    expect((await vr('keys', 'revoke', keyId)).stderr).toMatch(/^error: Not found/);

    // Two organizations: the server needs to be told which account a session acts for.
    await service.admin('create-org', '--name', 'First', '--owner', email);
    await service.admin('create-org', '--name', 'Second', '--owner', email);
    const ambiguous = await vr('credits');
    expect(ambiguous.exitCode).toBe(1);
    expect(ambiguous.stderr).toMatch(/^error: You belong to several organizations.*--org <id> or --org personal/);
    expect((await vr('credits', '--org', 'personal')).stdout).toContain('Balance    $1.25');
    expect((await runVr(['keys', 'list'], { env: { ...env, VR_ORGANIZATION: '00000000-0000-4000-8000-000000000000' } })).stderr)
      .toMatch(/^error: You are not a member of that organization/);

    const logout = await vr('logout');
    expect(logout.stdout).toBe('Logged out: the session is revoked.\n');
    expect(JSON.parse(fs.readFileSync(configFile, 'utf8')).sessionToken).toBeUndefined();
    expect((await vr('whoami', '--api-key', sessionToken)).stderr).toMatch(/^error: Not logged in or the session expired/);
    await page.close();
  });

  it('a login denied in the browser ends with a clear message and stores nothing', async (context) => {
    if (skipReason) return context.skip();
    const denyEnv = { ...env, VR_CONFIG_DIR: path.join(scratch, 'deny-config') };
    const page = await browser!.newPage();
    await signUp(page, `cli-deny-${Date.now()}@example.com`, 'another long pass phrase');
    const stdout = new CapturedStream();
    const finished = runVr(['login', '--no-browser'], { env: denyEnv, stdout });
    await expect.poll(() => stdout.text, { timeout: 30_000 }).toMatch(/code filled in:\n\s+\S+/);
    const completeUri = /code filled in:\n\s+(\S+)/.exec(stdout.text)![1]!;
    const userCode = /^\s+([A-Z]{4}-[A-Z]{4})$/m.exec(stdout.text)![1]!;
    await answerInBrowser(page, completeUri, userCode, 'Deny');
    const denied = await finished;
    expect(denied.exitCode).toBe(1);
    expect(denied.stderr).toContain('error: The login was denied in the browser');
    expect(fs.existsSync(path.join(denyEnv.VR_CONFIG_DIR, 'config.json'))).toBe(false);
    await page.close();
  });
});
