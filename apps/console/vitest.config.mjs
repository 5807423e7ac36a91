import { packageTestConfig } from '../../vitest.shared.mjs';

// The browser test starts Chromium; route tests render .tsx pages through the router.
export default packageTestConfig({
  include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
});
