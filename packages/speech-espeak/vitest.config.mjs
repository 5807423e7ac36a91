import { packageTestConfig } from '../../vitest.shared.mjs';

// dist/ is built first: the integration tests load the compiled worker thread exactly as consumers do.
export default packageTestConfig({ globalSetup: ['./test/build-dist.ts'] });
