import { describe, expect, it } from 'vitest';
import { newSpaceAfterChurn } from '@voice-router/test-support';
import { PGLITE_PROCESS_ENVIRONMENT, pgliteProcessNodeFlags, withPgliteProcessEnvironment } from './pglite-process-environment.js';

describe('withPgliteProcessEnvironment', () => {
  it("adds glibc's fixed trim and mmap thresholds and keeps everything else", () => {
    const environment = withPgliteProcessEnvironment({ PORT: '8080', DATA_DIR: '/data' });
    expect(environment).toEqual({ PORT: '8080', DATA_DIR: '/data', MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '32768' });
    expect(PGLITE_PROCESS_ENVIRONMENT).toEqual({ MALLOC_TRIM_THRESHOLD_: '131072', MALLOC_MMAP_THRESHOLD_: '32768' });
  });

  it("leaves an operator's own value alone, and does not change what it was given", () => {
    const given = { MALLOC_TRIM_THRESHOLD_: '1048576', MALLOC_MMAP_THRESHOLD_: '65536' };
    expect(withPgliteProcessEnvironment(given)).toEqual({ MALLOC_TRIM_THRESHOLD_: '1048576', MALLOC_MMAP_THRESHOLD_: '65536' });
    const empty: Record<string, string | undefined> = { MALLOC_TRIM_THRESHOLD_: '' };
    expect(withPgliteProcessEnvironment(empty).MALLOC_TRIM_THRESHOLD_).toBe('131072');
    expect(empty.MALLOC_TRIM_THRESHOLD_).toBe('');
  });
});

describe('pgliteProcessNodeFlags', () => {
  it("caps V8's semi-space and the old generation's growth, each unless NODE_OPTIONS already gives it", () => {
    const both = ['--max-semi-space-size=8', '--heap-growing-percent=35'];
    expect(pgliteProcessNodeFlags({})).toEqual(both);
    expect(pgliteProcessNodeFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(both);
    expect(pgliteProcessNodeFlags({ NODE_OPTIONS: '--enable-source-maps --max-semi-space-size=32' })).toEqual(['--heap-growing-percent=35']);
    expect(pgliteProcessNodeFlags({ NODE_OPTIONS: '--heap-growing-percent=100 --max-semi-space-size=32' })).toEqual([]);
  });

  it('starts a process whose young generation stays within two semi-spaces of 8 MiB', () => {
    expect(newSpaceAfterChurn(pgliteProcessNodeFlags({}))).toBeLessThanOrEqual(16 * 1024 * 1024);
    expect(newSpaceAfterChurn([])).toBeGreaterThan(16 * 1024 * 1024);
  });
});
