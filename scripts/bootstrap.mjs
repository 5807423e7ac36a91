// Makes a fresh clone runnable with only Node and npm: fetches the pinned pnpm through npx, installs
// from the frozen lockfile when needed, and builds with turbo (cached, so a rebuild is near-instant).
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const PNPM = 'pnpm@12.21.0';
const MINIMUM_NODE = [20, 19];

export const toolEnvironment = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  CHECKPOINT_DISABLE: '1',
  // Prisma's generator needs no engine, but its CLI looks for one; any existing file satisfies it.
  PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath,
  npm_config_update_notifier: 'false',
};

function run(command, args, { quiet = false } = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: quiet ? 'pipe' : 'inherit', env: toolEnvironment });
  if (result.status !== 0) {
    if (quiet) process.stderr.write(`${result.stdout ?? ''}${result.stderr ?? ''}`);
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
}

export function pnpm(args, options) {
  run('npx', ['--yes', PNPM, ...args], options);
}

function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
    throw new Error(`Node ${MINIMUM_NODE.join('.')} or newer is required (this is ${process.versions.node})`);
  }
}

const installMarker = path.join(root, 'node_modules', '.voice-router-install');

function lockfileDigest() {
  return crypto.createHash('sha256').update(fs.readFileSync(path.join(root, 'pnpm-lock.yaml'))).digest('hex');
}

function installIsCurrent() {
  return fs.existsSync(installMarker) && fs.readFileSync(installMarker, 'utf8') === lockfileDigest();
}

function markInstalled() {
  fs.writeFileSync(installMarker, lockfileDigest());
}

export function ensureReady({ quiet = false } = {}) {
  checkNode();
  if (!installIsCurrent()) {
    if (!quiet) process.stdout.write('Installing dependencies (frozen lockfile)…\n');
    pnpm(['install', '--frozen-lockfile', '--reporter=silent'], { quiet });
    markInstalled();
  }
  if (!quiet) process.stdout.write('Building…\n');
  pnpm(['exec', 'turbo', 'run', 'build', '--output-logs=errors-only', '--log-prefix=none'], { quiet: true });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    ensureReady({ quiet: false });
  } catch (error) {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
}
