// Shared vitest settings: generous timeouts for suites that start servers, and a JSON report per
// package when `npm test` asks for one (it adds them up into one closing line).
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export function packageTestConfig(overrides = {}) {
  // Each package runs its own tests from its own folder (turbo and pnpm both do).
  const packageDirectory = process.cwd();
  const reportDirectory = process.env.VR_TEST_REPORT_DIR;
  const name = path.basename(path.dirname(packageDirectory)) + '-' + path.basename(packageDirectory);
  return defineConfig({
    test: {
      include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
      testTimeout: 60_000,
      hookTimeout: 180_000,
      reporters: reportDirectory ? ['default', ['json', { outputFile: path.join(reportDirectory, `${name}.json`) }]] : ['default'],
      ...overrides,
    },
  });
}
