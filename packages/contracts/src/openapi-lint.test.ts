// Runs `redocly lint` (recommended ruleset, redocly.yaml) on the committed OpenAPI document, so
// `npm test` and CI fail on any error it reports. Warnings are printed, not fatal.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const packageDirectory = fileURLToPath(new URL('..', import.meta.url));
const redoclyCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}

function lint(): { errors: number; warnings: number; problems: LintProblem[] } {
  const result = spawnSync(process.execPath, [redoclyCli, 'lint', 'openapi/openapi.json', '--format=json'], {
    cwd: packageDirectory,
    encoding: 'utf8',
    // No telemetry and no update check: tests reach no network.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
    timeout: 120_000,
  });
  const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
    totals: { errors: number; warnings: number };
    problems: LintProblem[];
  };
  return { ...report.totals, problems: report.problems };
}

const describeProblem = (problem: LintProblem) => `${problem.severity} ${problem.ruleId} at ${problem.location[0]?.pointer}: ${problem.message}`;

describe('redocly lint (recommended)', () => {
  it('reports no error on the committed document', () => {
    const report = lint();
    const warnings = report.problems.filter((problem) => problem.severity !== 'error');
    if (warnings.length) console.info(`redocly warnings:\n${warnings.map(describeProblem).join('\n')}`);
    expect(report.problems.filter((problem) => problem.severity === 'error').map(describeProblem)).toEqual([]);
    expect(report.errors).toBe(0);
  });
});
