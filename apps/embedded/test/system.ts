// Starts the whole router as real processes for end-to-end suites: the embedded mode (one process,
// PGlite, in-process settlement) or the scaled-out mode (control plane, worker and two data-plane
// replicas on PostgreSQL and Redis). Operator commands run through the real admin CLI.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  captureLogs, createTestDatabase, flushRedisPrefix, freePort, redisUrl, uniqueRedisPrefix, type TestDatabase,
} from '@voice-router/test-support';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
const entry = (app: string) => path.join(repositoryRoot, 'apps', app, 'dist', 'main.js');

export type SystemMode = 'embedded' | 'scaled';

export interface SystemOptions {
  mode: SystemMode;
  /** Extra environment for every process (provider keys and URLs, timeouts). */
  environment: Record<string, string>;
  /** Start through `node scripts/start.mjs`, exactly as `npm start` does. */
  viaNpmStart?: boolean;
  /** Embedded mode: options for node itself, before the entry point (e.g. `--import` of a test preload); with
   * `viaNpmStart` they reach the launcher only, which starts the service without them. */
  nodeOptions?: string[];
  /** Scaled-out mode: extra environment for data-plane replica 1 or 2 only. */
  replicaEnvironment?(replica: number): Record<string, string>;
}

export interface RunningSystem {
  mode: SystemMode;
  /** Every data-plane base URL (two in the scaled-out mode). */
  baseUrls: string[];
  baseUrl: string;
  /** The control plane's own URL (scaled-out mode only). */
  controlPlaneUrl?: string;
  /** Each process's metrics listener (METRICS_PORT), by process name: embedded; or control-plane, worker, data-plane-1, data-plane-2. */
  metricsUrls: Record<string, string>;
  admin(...args: string[]): Promise<Record<string, unknown>>;
  /** The admin CLI with extra environment (e.g. provider keys for `smoke-test` outside the embedded process). */
  adminWith(environment: Record<string, string>, ...args: string[]): Promise<Record<string, unknown>>;
  /** Everything the processes wrote, for "nothing leaks" checks. */
  logs(): string;
  /** The process id of one process (for `viaNpmStart`, the launcher's: the service is its child). */
  pid(name: string): number | undefined;
  /** Kills one process abruptly (crash tests). */
  kill(name: string): void;
  /** Sends SIGTERM to one process and waits (up to `timeoutMs`, then SIGKILL) for it to exit. */
  terminate(name: string, timeoutMs?: number): Promise<{ code: number | null; signal: string | null; elapsedMs: number }>;
  close(): Promise<void>;
}

interface ManagedProcess {
  name: string;
  child: ChildProcess;
  output: string[];
}

/** Passed on from the test's own environment: CI forces the node:http data-plane server with it. */
const inherited = process.env.DATA_PLANE_SERVER ? { DATA_PLANE_SERVER: process.env.DATA_PLANE_SERVER } : {};

/** Starts one process; a service's output is also kept for the run's secret scan (`logs: true`). */
function startProcess(name: string, args: string[], environment: Record<string, string>, logs = true): ManagedProcess {
  // process.execPath: the processes run on the Node that runs the suite (20, or 24 via scripts/with-node.mjs).
  const child = spawn(process.execPath, args, {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LOG_LEVEL: 'info', ...inherited, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  if (logs) captureLogs(name, child);
  return { name, child, output };
}

async function waitUntilServing(url: string, managed: ManagedProcess[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = managed.find((item) => item.child.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited early:\n${dead.output.join('')}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up:\n${managed.map((item) => item.output.join('')).join('\n')}`);
}

function runAdmin(environment: Record<string, string>, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    // Not a log: the admin CLI prints the pk_ keys it creates, by design.
    const managed = startProcess('admin', [entry('admin'), ...args], environment, false);
    managed.child.on('exit', (code) => {
      const text = managed.output.join('');
      if (code !== 0) return reject(new Error(`admin ${args.join(' ')} failed (${code}): ${text}`));
      try {
        resolve(JSON.parse(text.slice(text.indexOf('{'))));
      } catch (error) {
        reject(new Error(`admin printed no JSON: ${text} (${(error as Error).message})`));
      }
    });
  });
}

async function stopAll(managed: ManagedProcess[]): Promise<void> {
  await Promise.all(
    managed.map(
      ({ child }) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
}

/**
 * Starts the system; once more on new ports if a port it picked was taken before its process could
 * listen on it (freePort() only finds a port that is free now: it picks below the ephemeral range, where
 * outgoing connections do not land, but another process binding a port of its own can still take it in
 * between, which shows as "cannot listen on …" or EADDRINUSE).
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  try {
    return await startSystemOnce(options);
  } catch (error) {
    if (!/cannot listen on|EADDRINUSE/.test(String((error as Error)?.message))) throw error;
    return startSystemOnce(options);
  }
}

async function startSystemOnce(options: SystemOptions): Promise<RunningSystem> {
  const managed: ManagedProcess[] = [];
  const metricsUrls: Record<string, string> = {};
  // Every process gets its own free metrics port (suites run in parallel; the default 9464 would clash).
  const metricsPort = async (name: string) => {
    const port = await freePort();
    metricsUrls[name] = `http://127.0.0.1:${port}`;
    return { METRICS_PORT: String(port) };
  };
  const cleanups: Array<() => Promise<void>> = [];
  const common = { ...options.environment };
  let adminEnvironment: Record<string, string>;
  let baseUrls: string[];
  let controlPlaneUrl: string | undefined;
  try {
    if (options.mode === 'embedded') {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-e2e-'));
      cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
      const port = await freePort();
      const environment = { ...common, PORT: String(port), DATA_DIR: dataDir, ...(await metricsPort('embedded')) };
      const args = [...(options.nodeOptions ?? []), options.viaNpmStart ? path.join(repositoryRoot, 'scripts', 'start.mjs') : entry('embedded')];
      managed.push(startProcess('embedded', args, environment));
      baseUrls = [`http://127.0.0.1:${port}`];
      // With DATABASE_URL the embedded process runs on PostgreSQL, and so must the operator commands.
      adminEnvironment = options.environment.DATABASE_URL ? { DATABASE_URL: options.environment.DATABASE_URL } : { DATA_DIR: dataDir };
    } else {
      const database: TestDatabase = await createTestDatabase();
      cleanups.push(() => database.drop());
      const prefix = uniqueRedisPrefix();
      cleanups.push(() => flushRedisPrefix(redisUrl()!, prefix));
      const shared = { ...common, DATABASE_URL: database.url, REDIS_URL: redisUrl()!, REDIS_PREFIX: prefix };
      const controlPort = await freePort();
      controlPlaneUrl = `http://127.0.0.1:${controlPort}`;
      // The data planes reach the control plane from 127.0.0.1: only they may say who the client is.
      const controlTrusts = [common.TRUSTED_PROXIES, '127.0.0.1'].filter(Boolean).join(',');
      managed.push(startProcess('control-plane', [entry('control-plane')], {
        ...shared, CONTROL_PLANE_PORT: String(controlPort), TRUSTED_PROXIES: controlTrusts, ...(await metricsPort('control-plane')),
      }));
      managed.push(startProcess('worker', [entry('worker')], { ...shared, REAPER_INTERVAL_MS: '500', ...options.environment, ...(await metricsPort('worker')) }));
      baseUrls = [];
      for (const replica of [1, 2]) {
        const port = await freePort();
        managed.push(startProcess(`data-plane-${replica}`, [entry('data-plane')], {
          ...shared, PORT: String(port), CONTROL_PLANE_URL: controlPlaneUrl, ...options.replicaEnvironment?.(replica), ...(await metricsPort(`data-plane-${replica}`)),
        }));
        baseUrls.push(`http://127.0.0.1:${port}`);
      }
      adminEnvironment = { DATABASE_URL: database.url };
    }
    // Each data plane answers /healthz itself (the catalog needs a token).
    for (const url of baseUrls) await waitUntilServing(`${url}/healthz`, managed);
    // The control plane itself: a suite may cut the data planes off from it (load-balancer.e2e.test.ts).
    if (controlPlaneUrl) await waitUntilServing(`${controlPlaneUrl}/readyz`, managed);
  } catch (error) {
    await stopAll(managed);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    throw error;
  }
  return {
    mode: options.mode,
    baseUrls,
    baseUrl: baseUrls[0]!,
    controlPlaneUrl,
    metricsUrls,
    admin: (...args) => runAdmin(adminEnvironment, args),
    adminWith: (environment, ...args) => runAdmin({ ...adminEnvironment, ...environment }, args),
    logs: () => managed.map((item) => `--- ${item.name}\n${item.output.join('')}`).join('\n'),
    pid: (name) => managed.find((item) => item.name === name)?.child.pid,
    kill(name) {
      managed.find((item) => item.name === name)?.child.kill('SIGKILL');
    },
    terminate(name, timeoutMs = 60_000) {
      const child = managed.find((item) => item.name === name)!.child;
      const started = Date.now();
      return new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        child.once('exit', (code, signal) => {
          clearTimeout(timer);
          resolve({ code, signal, elapsedMs: Date.now() - started });
        });
        child.kill('SIGTERM');
      });
    },
    async close() {
      await stopAll(managed);
      for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
    },
  };
}

/** A funded user with a key, through the operator commands. */
export async function fundedKey(system: RunningSystem, usd: string): Promise<{ key: string; email: string; accountId: string }> {
  const email = `user-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await system.admin('create-user', '--email', email);
  const key = await system.admin('create-key', '--email', email, '--name', 'e2e');
  if (Number(usd) > 0) await system.admin('grant', '--email', email, '--usd', usd);
  return { key: key.keyValue as string, email, accountId: user.personalAccountId as string };
}
