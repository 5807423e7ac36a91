// Starts the router as real processes, like the end-to-end suites do: the embedded mode (one process,
// PGlite) or the scaled-out mode (control plane, worker, data plane on PostgreSQL and Redis). Accounts
// and keys come from the real operator commands.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgliteProcessNodeFlags, withPgliteProcessEnvironment } from '@voice-router/ledger';
import { DATA_PLANE_NODE_FLAGS, nodeFlagsNotGiven } from '@voice-router/service-kit/node-flags';
import { freePort } from '@voice-router/test-support';
import { repositoryRoot, runToCompletion, startProcess, stopAll, stopProcess, waitUntilServing, type ManagedProcess } from './managed-process.js';
import type { BackingServices, RunScope } from './backing-services.js';
import { waitUntilQuiet } from './proc-stats.js';

export type RouterMode = 'embedded' | 'scaled';
export const entry = (app: string) => path.join(repositoryRoot, 'apps', app, 'dist', 'main.js');

let quietStart = true;
/** The quick run skips waiting for start-up work to finish: its numbers are not read. */
export function waitForQuietStarts(enabled: boolean): void {
  quietStart = enabled;
}

export interface DataPlaneOptions {
  /** Write a V8 CPU profile here when the process exits. */
  cpuProfileDirectory?: string;
  /** Run the data plane on this Node binary (e.g. Node 24, where it serves through its node:http adapter). */
  nodeBinary?: string;
  /** Scaled extra data planes: another build's entry (e.g. the base commit's, for a before/after in one run). */
  entry?: string;
}

export interface FundedKey {
  email: string;
  userId: string;
  key: string;
  accountId: string;
}

export interface RouterSystem {
  mode: RouterMode;
  baseUrl: string;
  /** The serving process's Prometheus metrics listener (its METRICS_PORT); GET <metricsUrl>/metrics. */
  metricsUrl: string;
  /** The processes that serve HTTP on baseUrl (the embedded process holds everything). */
  dataPlane: ManagedProcess;
  /** Every process of this mode, by role, for CPU accounting. */
  processes(): ManagedProcess[];
  admin(...args: string[]): Promise<Record<string, unknown>>;
  /** A user with a key and `usd` of credit. */
  fundedKey(usd: string): Promise<FundedKey>;
  /** Embedded: the PGlite data dir (seed it only while the data plane is stopped). */
  dataDir?: string;
  /** Scaled: the run's own database. */
  databaseUrl?: string;
  /** Stops the data plane (embedded: the whole process; its data dir stays). */
  stopDataPlane(): Promise<void>;
  /** Starts it again, e.g. with metrics or a CPU profile. */
  startDataPlane(options: DataPlaneOptions): Promise<void>;
  /** Scaled: one more data plane on the same database and Redis, with extra environment (e.g. KEY_LIMITS=off) or another Node binary. */
  startExtraDataPlane?(environment: Record<string, string>, options?: DataPlaneOptions): Promise<{ baseUrl: string; process: ManagedProcess }>;
  stop(): Promise<void>;
}

function nodeOptions(options: DataPlaneOptions): string[] {
  return options.cpuProfileDirectory ? ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDirectory}`] : [];
}

/** A scaled data plane's Node flags: those its image and README pass, then the run's own (a CPU profile). */
function dataPlaneFlags(environment: Record<string, string>, options: DataPlaneOptions): string[] {
  return [...nodeFlagsNotGiven(DATA_PLANE_NODE_FLAGS, environment), ...nodeOptions(options)];
}

async function fundedKeyThrough(admin: RouterSystem['admin'], usd: string): Promise<FundedKey> {
  const email = `bench-${Math.random().toString(36).slice(2)}@example.com`;
  const user = await admin('create-user', '--email', email);
  const [key] = await Promise.all([
    admin('create-key', '--email', email, '--name', 'bench'),
    Number(usd) > 0 ? admin('grant', '--email', email, '--usd', usd) : undefined,
  ]);
  return { email, userId: user.userId as string, key: key.keyValue as string, accountId: user.personalAccountId as string };
}

/** `dataDir` may already hold a seeded PGlite database (in `<dataDir>/pglite`); it is removed on stop. */
export async function startEmbeddedRouter(
  providerEnvironment: Record<string, string>, options: DataPlaneOptions = {}, dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-bench-')),
): Promise<RouterSystem> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  const launch = async (launchOptions: DataPlaneOptions) => {
    // As `npm start` runs it (scripts/start.mjs): with PGlite's malloc settings and Node flags.
    const environment = withPgliteProcessEnvironment<Record<string, string>>({
      ...providerEnvironment, PORT: String(port), DATA_DIR: dataDir, METRICS_PORT: String(metricsPort),
    });
    const flags = [...pgliteProcessNodeFlags(environment), ...nodeOptions(launchOptions)];
    const managed = startProcess('embedded', [entry('embedded')], environment, flags, launchOptions.nodeBinary, { sampleStartup: true });
    await waitUntilServing(`${baseUrl}/healthz`, [managed]);
    if (quietStart) await waitUntilQuiet(managed.pid);
    managed.startupDone();
    return managed;
  };
  // Restarts (metrics, profiles) keep the Node binary the router was started on.
  let service = await launch(options);
  const relaunch = (next: DataPlaneOptions) => launch({ nodeBinary: options.nodeBinary, ...next });
  const admin: RouterSystem['admin'] = (...args) => runToCompletion('admin', [entry('admin'), ...args], { DATA_DIR: dataDir });
  const system: RouterSystem = {
    mode: 'embedded',
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    get dataPlane() {
      return service;
    },
    processes: () => [service],
    admin,
    fundedKey: (usd) => fundedKeyThrough(admin, usd),
    dataDir: path.join(dataDir, 'pglite'),
    stopDataPlane: () => stopProcess(service),
    async startDataPlane(next) {
      service = await relaunch(next);
    },
    async stop() {
      await stopProcess(service);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return system;
}

export async function startScaledRouter(
  providerEnvironment: Record<string, string>, services: BackingServices, scope: RunScope, options: DataPlaneOptions = {},
): Promise<RouterSystem> {
  const shared = {
    ...providerEnvironment, DATABASE_URL: scope.database.url, REDIS_URL: services.redisUrl, REDIS_PREFIX: scope.redisPrefix,
  };
  const controlPort = await freePort();
  // METRICS_PORT=0 (any free port) where nothing scrapes: processes on one host cannot all have 9464.
  const controlPlane = startProcess('control-plane', [entry('control-plane')], { ...shared, CONTROL_PLANE_PORT: String(controlPort), METRICS_PORT: '0' });
  // The control plane applies the migrations; the others wait for it so they do not race on the lock.
  await waitUntilServing(`http://127.0.0.1:${controlPort}/healthz`, [controlPlane]);
  // METRICS_PORT 0: the worker's health listener takes any free port.
  const worker = startProcess('worker', [entry('worker')], { ...shared, METRICS_PORT: '0' });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const metricsPort = await freePort();
  const launch = async (launchOptions: DataPlaneOptions) => {
    const environment: Record<string, string> = {
      ...shared, PORT: String(port), CONTROL_PLANE_URL: `http://127.0.0.1:${controlPort}`, METRICS_PORT: String(metricsPort),
    };
    const managed = startProcess('data-plane', [entry('data-plane')], environment, dataPlaneFlags(environment, launchOptions), launchOptions.nodeBinary, { sampleStartup: true });
    await waitUntilServing(`${baseUrl}/healthz`, [managed, controlPlane, worker]);
    if (quietStart) await waitUntilQuiet(managed.pid);
    managed.startupDone();
    return managed;
  };
  let dataPlane = await launch(options);
  const extras: ManagedProcess[] = [];
  const admin: RouterSystem['admin'] = (...args) => runToCompletion('admin', [entry('admin'), ...args], { DATABASE_URL: scope.database.url });
  return {
    mode: 'scaled',
    baseUrl,
    metricsUrl: `http://127.0.0.1:${metricsPort}`,
    get dataPlane() {
      return dataPlane;
    },
    processes: () => [dataPlane, controlPlane, worker],
    admin,
    fundedKey: (usd) => fundedKeyThrough(admin, usd),
    databaseUrl: scope.database.url,
    stopDataPlane: () => stopProcess(dataPlane),
    async startDataPlane(next) {
      dataPlane = await launch(next);
    },
    async startExtraDataPlane(extraEnvironment, extraOptions = {}) {
      const extraPort = await freePort();
      const extraUrl = `http://127.0.0.1:${extraPort}`;
      const environment = {
        ...shared, METRICS_PORT: '0', ...extraEnvironment, PORT: String(extraPort), CONTROL_PLANE_URL: `http://127.0.0.1:${controlPort}`,
      };
      const managed = startProcess('data-plane-extra', [extraOptions.entry ?? entry('data-plane')], environment, dataPlaneFlags(environment, extraOptions), extraOptions.nodeBinary);
      extras.push(managed);
      await waitUntilServing(`${extraUrl}/healthz`, [managed, controlPlane, worker]);
      if (quietStart) await waitUntilQuiet(managed.pid);
      return { baseUrl: extraUrl, process: managed };
    },
    stop: () => stopAll([...extras, dataPlane, worker, controlPlane]),
  };
}
