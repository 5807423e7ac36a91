import { packageTestConfig } from '../../vitest.shared.mjs';

export default packageTestConfig();
