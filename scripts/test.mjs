// `npm test`: build, typecheck, then every package's vitest suites one package at a time (the
// end-to-end suites start servers and processes; two cores are better spent on one at a time).
// Suites needing PostgreSQL or Redis run when DATABASE_URL / REDIS_URL are set, and say so when not.
// At the end the run's logs (every service the suites started, and the suites' own output) are scanned
// for secrets; a secret found fails the run.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeFailures, sumReports } from './test-reports.mjs';
import { ensureReady, root, toolEnvironment } from './bootstrap.mjs';

try {
  ensureReady();
} catch (error) {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-test-'));
const logs = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-test-logs-'));
const environment = { ...toolEnvironment, VR_TEST_REPORT_DIR: reports, VR_TEST_LOG_DIR: logs };
const turbo = (task, extra = []) =>
  spawnSync('npx', ['--yes', 'pnpm@12.21.0', 'exec', 'turbo', 'run', task, '--concurrency=1', '--log-order=grouped', ...extra], {
    cwd: root, stdio: 'inherit', env: environment,
  });

/** Like turbo() but also copies everything the suites print into the log folder (in-process loggers write there). */
function turboTeed(task, extra, file) {
  const output = fs.createWriteStream(path.join(logs, file));
  const child = spawn('npx', ['--yes', 'pnpm@12.21.0', 'exec', 'turbo', 'run', task, '--concurrency=1', '--log-order=grouped', ...extra], {
    cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env: environment,
  });
  child.stdout.on('data', (chunk) => (process.stdout.write(chunk), output.write(chunk)));
  child.stderr.on('data', (chunk) => (process.stderr.write(chunk), output.write(chunk)));
  return new Promise((resolve) => child.once('close', (status) => output.end(() => resolve({ status }))));
}

const typecheck = turbo('typecheck', ['--output-logs=errors-only', '--continue']);
const tests = await turboTeed('test', ['--continue'], 'npm-test-output.log');

// The secret scan (built by ensureReady above).
const { scanLogDirectory } = await import(pathToFileURL(path.join(root, 'packages', 'test-support', 'dist', 'log-scan.js')).href);
const scan = scanLogDirectory(logs);

const { passed, failed, skipped, failures } = sumReports(reports);

const notes = [];
if (!process.env.DATABASE_URL) notes.push('suites that need PostgreSQL were skipped: DATABASE_URL is not set');
if (!process.env.REDIS_URL) notes.push('suites that need Redis (BullMQ, scaled-out mode) were skipped: REDIS_URL is not set');
process.stdout.write('\n');
for (const note of notes) process.stdout.write(`note: ${note}\n`);
if (typecheck.status !== 0) process.stdout.write('typecheck failed\n');
process.stdout.write(describeFailures(failures, root));
process.stdout.write(`${passed} passed, ${failed} failed, ${skipped} skipped\n`);
for (const finding of scan.findings) process.stdout.write(`secret in logs: ${finding.kind} at ${finding.file}:${finding.line} (${finding.excerpt})\n`);
process.stdout.write(`log scan: ${scan.files} log files, ${scan.findings.length} secrets found${scan.findings.length ? ` (logs kept in ${logs})` : ''}\n`);
if (scan.findings.length === 0) fs.rmSync(logs, { recursive: true, force: true });
process.exit(typecheck.status === 0 && tests.status === 0 && failed === 0 && scan.findings.length === 0 ? 0 : 1);
