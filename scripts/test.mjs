// `npm test`: build, typecheck, then every package's vitest suites one package at a time (the
// end-to-end suites start servers and processes; two cores are better spent on one at a time).
// Suites needing PostgreSQL or Redis run when DATABASE_URL / REDIS_URL are set, and say so when not.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sumReports } from './test-reports.mjs';
import { ensureReady, root, toolEnvironment } from './bootstrap.mjs';

try {
  ensureReady();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-test-'));
const environment = { ...toolEnvironment, VR_TEST_REPORT_DIR: reports };
const turbo = (task, extra = []) =>
  spawnSync('npx', ['--yes', 'pnpm@12.21.0', 'exec', 'turbo', 'run', task, '--concurrency=1', '--log-order=grouped', ...extra], {
    cwd: root, stdio: 'inherit', env: environment,
  });

const typecheck = turbo('typecheck', ['--output-logs=errors-only', '--continue']);
const tests = turbo('test', ['--continue']);

const { passed, failed, skipped } = sumReports(reports);

const notes = [];
if (!process.env.DATABASE_URL) notes.push('suites that need PostgreSQL were skipped: DATABASE_URL is not set');
if (!process.env.REDIS_URL) notes.push('suites that need Redis (BullMQ, scaled-out mode) were skipped: REDIS_URL is not set');
process.stdout.write('\n');
for (const note of notes) process.stdout.write(`note: ${note}\n`);
if (typecheck.status !== 0) process.stdout.write('typecheck failed\n');
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(typecheck.status === 0 && tests.status === 0 && failed === 0 ? 0 : 1);
