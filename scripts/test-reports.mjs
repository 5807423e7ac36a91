// Adds up the JSON reports vitest wrote into one folder (VR_TEST_REPORT_DIR), then removes the folder.
// The failed tests are returned by name with the first lines of their first failure, so that the end of
// a long run's output (often all a CI log keeps) says which test failed and how.
import fs from 'node:fs';
import path from 'node:path';

export function sumReports(directory) {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failures = [];
  for (const file of fs.readdirSync(directory)) {
    const report = JSON.parse(fs.readFileSync(path.join(directory, file), 'utf8'));
    passed += report.numPassedTests ?? 0;
    failed += report.numFailedTests ?? 0;
    skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const suite of report.testResults ?? []) {
      const failedTests = (suite.assertionResults ?? []).filter((test) => test.status === 'failed');
      for (const test of failedTests) failures.push({ file: suite.name, test: test.fullName ?? test.title, message: firstLines(test.failureMessages?.[0]) });
      // A file that failed before any of its tests ran (an import or a hook threw).
      if (suite.status === 'failed' && failedTests.length === 0) failures.push({ file: suite.name, test: '(the file itself)', message: firstLines(suite.message) });
    }
  }
  fs.rmSync(directory, { recursive: true, force: true });
  return { passed, failed, skipped, failures };
}

/** One `FAILED <file> > <test>` line per failed test, its failure's first lines indented under it. */
export function describeFailures(failures, root) {
  let text = '';
  for (const failure of failures) {
    text += `FAILED ${path.relative(root, failure.file)} > ${failure.test}\n`;
    if (failure.message) text += `${failure.message.replace(/^/gm, '    ')}\n`;
  }
  return text;
}

function firstLines(text, count = 6) {
  if (!text) return '';
  // eslint-disable-next-line no-control-regex
  const lines = String(text).replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  // The frames inside vitest and other dependencies say nothing about the test.
  return lines.filter((line) => !/^\s+at .*(node_modules|<anonymous>)/.test(line)).slice(0, count).join('\n');
}
