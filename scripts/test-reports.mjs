// Adds up the JSON reports vitest wrote into one folder (VR_TEST_REPORT_DIR), then removes the folder.
import fs from 'node:fs';
import path from 'node:path';

export function sumReports(directory) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of fs.readdirSync(directory)) {
    const report = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  fs.rmSync(directory, { recursive: true, force: true });
  return { passed, failed, skipped };
}
