import { describe, expect, it } from 'vitest';
import { PGLITE_PROCESS_ENVIRONMENT, withPgliteProcessEnvironment } from './pglite-process-environment.js';

describe('withPgliteProcessEnvironment', () => {
  it("adds glibc's fixed trim threshold and keeps everything else", () => {
    const environment = withPgliteProcessEnvironment({ PORT: '8080', DATA_DIR: '/data' });
    expect(environment).toEqual({ PORT: '8080', DATA_DIR: '/data', MALLOC_TRIM_THRESHOLD_: '131072' });
    expect(PGLITE_PROCESS_ENVIRONMENT).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072' });
  });

  it("leaves an operator's own value alone, and does not change what it was given", () => {
    const given = { MALLOC_TRIM_THRESHOLD_: '1048576' };
    expect(withPgliteProcessEnvironment(given)).toEqual({ MALLOC_TRIM_THRESHOLD_: '1048576' });
    const empty: Record<string, string | undefined> = { MALLOC_TRIM_THRESHOLD_: '' };
    expect(withPgliteProcessEnvironment(empty).MALLOC_TRIM_THRESHOLD_).toBe('131072');
    expect(empty.MALLOC_TRIM_THRESHOLD_).toBe('');
  });
});
