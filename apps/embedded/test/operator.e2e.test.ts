// Operator commands with and without a running embedded service, and start-up configuration errors.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '@voice-router/test-support';
import { ConsoleClient } from './console-client.js';
import { credits } from './e2e-support.js';
import { repositoryRoot } from './system.js';

function run(app: string, args: string[], environment: Record<string, string>, input?: string): Promise<{ code: number | null; output: string }> {
  const timeoutMs = 60_000;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(repositoryRoot, 'apps', app, 'dist', 'main.js'), ...args], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', ...environment },
    });
    child.stdin.end(input ?? '');
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

const json = (output: string) => JSON.parse(output.slice(output.indexOf('{'))) as Record<string, unknown>;

describe('operator commands and configuration (embedded mode)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-operator-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('stops start-up with a message naming a bad variable', async () => {
    const result = await run('embedded', [], { PORT: 'not-a-port', DATA_DIR: dataDir });
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/PORT/);
    const badUrl = await run('embedded', [], { OPENAI_BASE_URL: 'ftp://example', DATA_DIR: dataDir });
    expect(badUrl.code).toBe(1);
    expect(badUrl.output).toMatch(/OPENAI_BASE_URL/);
  });

  it('works on the data dir directly with no service running, then through the service once it runs', async () => {
    const environment = { DATA_DIR: dataDir };
    const user = await run('admin', ['create-user', '--email', 'Op@Example.com'], environment);
    expect(user.code, user.output).toBe(0);
    expect(json(user.output)).toMatchObject({ email: 'op@example.com' });
    const key = json((await run('admin', ['create-key', '--email', 'op@example.com'], environment)).output);
    expect(json((await run('admin', ['grant', '--email', 'op@example.com', '--usd', '2.5'], environment)).output)).toMatchObject({ balanceMicros: 2_500_000 });
    const refused = await run('admin', ['grant', '--email', 'op@example.com', '--usd', '1.0000001'], environment);
    expect(refused.code).toBe(2);
    const unknown = await run('admin', ['grant', '--email', 'nobody@example.com', '--usd', '1'], environment);
    expect(unknown.code).toBe(1);
    expect(unknown.output).toMatch(/no user with email/);

    const port = await freePort();
    const service = spawn(process.execPath, [path.join(repositoryRoot, 'apps', 'embedded', 'dist', 'main.js')], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port) },
      stdio: 'ignore',
    });
    try {
      const baseUrl = `http://127.0.0.1:${port}`;
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !fs.existsSync(path.join(dataDir, 'admin.json'))) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(fs.statSync(path.join(dataDir, 'admin.json')).mode & 0o777).toBe(0o600);
      expect(await credits(baseUrl, key.keyValue as string)).toEqual({ balanceMicros: 2_500_000, reservedMicros: 0 });
      // While the service owns the data dir, the command goes through its loopback endpoint.
      const grant = await run('admin', ['grant', '--email', 'op@example.com', '--usd', '0.5'], environment);
      expect(json(grant.output)).toMatchObject({ balanceMicros: 3_000_000 });
      expect(await credits(baseUrl, key.keyValue as string)).toEqual({ balanceMicros: 3_000_000, reservedMicros: 0 });
      const audit = json((await run('admin', ['audit', '--email', 'op@example.com'], environment)).output);
      expect(audit).toMatchObject({ consistent: true, sumOfDeltas: 3_000_000 });
      const accounts = json((await run('admin', ['list-accounts'], environment)).output) as { accounts: Array<{ members: string[] }> };
      expect(accounts.accounts.some((account) => account.members.includes('op@example.com'))).toBe(true);

      // Nobody can claim the operator-created user by signing up; the operator sets a password instead.
      const stranger = new ConsoleClient(baseUrl);
      const claim = await stranger.submit('/console/signup', /\/console\/signup/, { email: 'op@example.com', password: 'stranger password' });
      expect(claim.status).toBeGreaterThanOrEqual(400);
      expect((await run('admin', ['set-password', '--email', 'op@example.com', '--password', '-'], environment, 'short\n')).code).toBe(1);
      expect(json((await run('admin', ['set-password', '--email', 'op@example.com', '--password', '-'], environment, 'operator chosen password\n')).output)).toMatchObject({ passwordSet: true });
      const owner = new ConsoleClient(baseUrl);
      const login = await owner.submit('/console/login', /\/console\/login/, { email: 'op@example.com', password: 'operator chosen password' });
      expect(login.status).toBe(303);
      expect(login.location).toMatch(/^\/console/);
    } finally {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
    expect(fs.existsSync(path.join(dataDir, 'admin.json'))).toBe(false);
  });
});
