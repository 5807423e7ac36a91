// CI: the suites that exercise the data plane's HTTP server, on another maintained Node line (default 24).
// Node 22, 24 and 26 have no native uWebSockets.js build, so this is where the data plane's node:http
// adapter serves for real; provider streaming and the audio pipeline run too (undici and web streams differ by line).
// Of the embedded end-to-end suites, speech, accounts and concurrency drive the data plane; operator
// and the console's browser suite exercise the CLI and the console (Express) and are left to `npm test`.
//   node scripts/test-node-line.mjs 24        (after `npm test`, which builds; DATABASE_URL/REDIS_URL as there)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeFailures, sumReports } from './test-reports.mjs';
import { NODE_VERSIONS } from './with-node.mjs';
import { root } from './bootstrap.mjs';

const line = process.argv[2] ?? '24';
const SUITES = [
  { folder: 'apps/data-plane', files: [] },
  { folder: 'packages/providers', files: ['src/streaming'] },
  // The output-format pipeline (typed arrays, text decoding, generators): cheap, and part of every stream it converts.
  { folder: 'packages/audio', files: [] },
  { folder: 'apps/embedded', files: ['test/speech.e2e.test.ts', 'test/accounts.e2e.test.ts', 'test/concurrency.e2e.test.ts'] },
];

process.stdout.write(`\n=== Node ${line} (${NODE_VERSIONS[line] ?? 'unpinned'}): data-plane, provider streaming and embedded end-to-end suites ===\n`);
const reports = fs.mkdtempSync(path.join(os.tmpdir(), `vr-node${line}-`));
const failedRuns = [];
for (const suite of SUITES) {
  const run = spawnSync(
    process.execPath,
    [path.join(root, 'scripts', 'with-node.mjs'), line, '--', 'npx', 'vitest', 'run', ...suite.files],
    { cwd: path.join(root, suite.folder), stdio: 'inherit', env: { ...process.env, VR_TEST_REPORT_DIR: reports } },
  );
  if (run.status !== 0) failedRuns.push(suite.folder);
}

const { passed, failed, skipped, failures } = sumReports(reports);

process.stdout.write(describeFailures(failures, root));
if (failedRuns.length) process.stdout.write(`failed on Node ${line}: ${failedRuns.join(', ')}\n`);
process.stdout.write(`Node ${line}: ${passed} passed, ${failed} failed, ${skipped} skipped\n`);
process.exit(failedRuns.length === 0 && failed === 0 && passed > 0 ? 0 : 1);
