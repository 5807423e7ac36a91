// Brings one run mode to the starting line: the router's processes, a pool of funded accounts for the
// load scenarios, and an account with a long seeded history for the activity scenario.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackingServices, RunScope } from './infra/backing-services.js';
import { runToCompletion, stopProcess } from './infra/managed-process.js';
import { startEmbeddedRouter, startScaledRouter, type RouterSystem } from './infra/router-system.js';

export interface LoadAccount {
  key: string;
  accountId: string;
  email: string;
}

/** The same router with per-key rate and concurrency limits off, to measure what checking them costs. */
export interface LimitsOffTwin {
  baseUrl: string;
  pid(): number;
  loadAccounts: LoadAccount[];
  stop(): Promise<void>;
}

export const LIMITS_OFF = { KEY_LIMITS: 'off' };
/**
 * Metrics off and the quietest log level: the router's observability switched off, to price it. The
 * router itself runs with metrics on (every process has a METRICS_PORT) and LOG_LEVEL=info (a line per request, as
 * operators run it; see infra/managed-process.ts).
 */
export const OBSERVABILITY_OFF = { METRICS_ENABLED: 'false', LOG_LEVEL: 'silent' };

export interface ModeContext {
  router: RouterSystem;
  /** One funded account per load client, so load scenarios do not all queue on one wallet's row lock. */
  loadAccounts: LoadAccount[];
  activity: { key: string; ledgerRows: number; seedSeconds: number; sessionToken?: string };
  /** Scenario 5's account: no credit until the scenario grants it, a key with generous limits. */
  hotWallet: LoadAccount;
}

const seedEntry = path.join(path.dirname(fileURLToPath(import.meta.url)), 'processes', 'seed-data.js');

/** Seeds through the ledger's own operations in a separate process (PGlite: before the service opens it). */
async function seed(target: string, rows: number, loadAccounts: number) {
  const result = await runToCompletion('seed-data', [seedEntry, target, `--rows=${rows}`, `--load-accounts=${loadAccounts}`], {});
  const activity = result.activity as LoadAccount;
  return {
    loadAccounts: result.loadKeys as LoadAccount[],
    hotWallet: result.hotWallet as LoadAccount,
    activity: { key: activity.key, ledgerRows: result.rows as number, seedSeconds: result.seconds as number, sessionToken: result.sessionToken as string | undefined },
  };
}

export async function setupEmbedded(
  providerEnvironment: Record<string, string>, activityRows: number, loadAccounts: number, nodeBinary?: string,
): Promise<ModeContext> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-bench-'));
  // Only one process may open a PGlite data dir: seed it before the service starts.
  const seeded = await seed(`--pglite=${path.join(dataDir, 'pglite')}`, activityRows, loadAccounts);
  const router = await startEmbeddedRouter(providerEnvironment, { nodeBinary }, dataDir);
  return { router, ...seeded };
}

export async function setupScaled(
  providerEnvironment: Record<string, string>, services: BackingServices, scope: RunScope, activityRows: number, loadAccounts: number,
): Promise<ModeContext> {
  const router = await startScaledRouter(providerEnvironment, services, scope);
  try {
    return { router, ...(await seed(`--database-url=${router.databaseUrl}`, activityRows, loadAccounts)) };
  } catch (error) {
    await router.stop();
    throw error;
  }
}

/**
 * Scaled: a second data plane with `overrides` (e.g. KEY_LIMITS=off) beside the first (same database,
 * Redis, worker and keys). Embedded: a second embedded process with them and its own small seeded data dir.
 */
/**
 * The same router (limits on) with its data plane on another Node binary: Node 24 has no native uWS
 * build, so this prices the data plane's node:http adapter path beside the native one on Node 20.
 */
export function startNodeLineTwin(mode: ModeContext, providerEnvironment: Record<string, string>, loadAccounts: number, nodeBinary: string): Promise<LimitsOffTwin> {
  return startTwin(mode, providerEnvironment, loadAccounts, {}, nodeBinary);
}

/** Scaled only: a data plane built elsewhere (e.g. from the base commit), for a before/after in the same rounds. */
export async function startBaselineTwin(mode: ModeContext, entry: string): Promise<LimitsOffTwin | undefined> {
  if (!mode.router.startExtraDataPlane) return undefined;
  const extra = await mode.router.startExtraDataPlane({}, { entry });
  return { baseUrl: extra.baseUrl, pid: () => extra.process.pid, loadAccounts: mode.loadAccounts, stop: () => stopProcess(extra.process) };
}

export async function startTwin(
  mode: ModeContext, providerEnvironment: Record<string, string>, loadAccounts: number, overrides: Record<string, string> = LIMITS_OFF, nodeBinary?: string,
): Promise<LimitsOffTwin> {
  if (mode.router.startExtraDataPlane) {
    const extra = await mode.router.startExtraDataPlane(overrides, { nodeBinary });
    return { baseUrl: extra.baseUrl, pid: () => extra.process.pid, loadAccounts: mode.loadAccounts, stop: () => stopProcess(extra.process) };
  }
  const twin = await setupEmbedded({ ...providerEnvironment, ...overrides }, 10, loadAccounts, nodeBinary);
  return { baseUrl: twin.router.baseUrl, pid: () => twin.router.dataPlane.pid, loadAccounts: twin.loadAccounts, stop: () => twin.router.stop() };
}
