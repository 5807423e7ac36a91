// Operator commands with and without a running embedded service, and start-up configuration errors.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, createTestDatabase, freePort, postgresUrl } from '@voice-router/test-support';
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

  it('works on the data dir directly with no service running, then through the service once it runs', { timeout: 240_000 }, async () => {
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

    // A retried grant with the same idempotency key credits once; the key reused for another amount is refused.
    await run('admin', ['create-user', '--email', 'retry@example.com'], environment);
    const first = json((await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '1', '--idempotency-key', 'topup-1'], environment)).output);
    expect(first).toMatchObject({ balanceMicros: 1_000_000, duplicate: false, idempotencyKey: 'topup-1' });
    const retried = json((await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '1', '--idempotency-key', 'topup-1'], environment)).output);
    expect(retried).toMatchObject({ balanceMicros: 1_000_000, duplicate: true, entryId: first.entryId });
    const conflict = await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '2', '--idempotency-key', 'topup-1'], environment);
    expect(conflict.code).toBe(1);
    expect(conflict.output).toMatch(/idempotency key topup-1 was already used for a different grant.*nothing was credited/);

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
      // Through the running service too: the same key credits once more never, and a conflict is named.
      const viaService = json((await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '1', '--idempotency-key', 'topup-1'], environment)).output);
      expect(viaService).toMatchObject({ balanceMicros: 1_000_000, duplicate: true, entryId: first.entryId });
      const secondKey = json((await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '1', '--idempotency-key', 'topup-2'], environment)).output);
      expect(secondKey).toMatchObject({ balanceMicros: 2_000_000, duplicate: false });
      const conflictViaService = await run('admin', ['grant', '--email', 'retry@example.com', '--usd', '3', '--idempotency-key', 'topup-2'], environment);
      expect(conflictViaService.code).toBe(1);
      expect(conflictViaService.output).toMatch(/idempotency key topup-2 was already used for a different grant/);

      // A second service on the same data dir is refused before it touches anything.
      const second = await run('embedded', [], { DATA_DIR: dataDir, PORT: String(await freePort()) });
      expect(second.code).not.toBe(0);
      expect(second.output).toContain(`in use by another process (pid ${service.pid})`);
      expect(fs.existsSync(path.join(dataDir, 'admin.json'))).toBe(true);

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
    expect(fs.existsSync(path.join(dataDir, 'pglite.pid'))).toBe(false);
  });

  it('starts over a lock file left by a process that is gone', async () => {
    const gone = spawn(process.execPath, ['-e', '0']);
    await new Promise((resolve) => gone.once('exit', resolve));
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'pglite.pid'), `${gone.pid}\n`);
    const port = await freePort();
    const service = spawn(process.execPath, [path.join(repositoryRoot, 'apps', 'embedded', 'dist', 'main.js')], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, PORT: String(port) },
      stdio: 'ignore',
    });
    try {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline && !fs.existsSync(path.join(dataDir, 'admin.json'))) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(fs.readFileSync(path.join(dataDir, 'pglite.pid'), 'utf8').trim()).toBe(String(service.pid));
      const accounts = await run('admin', ['list-accounts'], { DATA_DIR: dataDir });
      expect(accounts.code, accounts.output).toBe(0);
    } finally {
      service.kill('SIGTERM');
      await new Promise((resolve) => service.once('exit', resolve));
    }
  });
});

const postgresAvailable = Boolean(postgresUrl());
if (!postgresAvailable) announceSkip('operator grants with idempotency keys on PostgreSQL', 'DATABASE_URL is not set');

describe.runIf(postgresAvailable)('operator grants with idempotency keys on PostgreSQL', () => {
  it('credits a retried grant once and refuses the key for another amount', async () => {
    const database = await createTestDatabase();
    try {
      const environment = { DATABASE_URL: database.url };
      expect((await run('admin', ['create-user', '--email', 'pg@example.com'], environment)).code).toBe(0);
      const grant = () => run('admin', ['grant', '--email', 'pg@example.com', '--usd', '0.25', '--idempotency-key', 'invoice-77'], environment);
      const [first, second] = await Promise.all([grant(), grant()]);
      const results = [json(first.output), json(second.output)];
      expect(results.map((result) => result.duplicate).sort()).toEqual([false, true]);
      expect(results.every((result) => result.balanceMicros === 250_000)).toBe(true);
      const conflict = await run('admin', ['grant', '--email', 'pg@example.com', '--usd', '0.5', '--idempotency-key', 'invoice-77'], environment);
      expect(conflict.code).toBe(1);
      expect(conflict.output).toMatch(/already used for a different grant/);
      const audit = json((await run('admin', ['audit', '--email', 'pg@example.com'], environment)).output);
      expect(audit).toMatchObject({ consistent: true, balanceMicros: 250_000 });
    } finally {
      await database.drop();
    }
  });
});
