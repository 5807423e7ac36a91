// Environment for a process that runs PGlite (the embedded service), set by whoever starts it: glibc reads
// these before any JavaScript runs. No imports, so a launcher can load this file alone.

/**
 * `MALLOC_TRIM_THRESHOLD_`: glibc raises its mmap and trim thresholds as the process frees large blocks
 * (up to 32 and 64 MiB), so memory the embedded process freed (PGlite's start-up and queries among it) was
 * kept rather than returned to the system. A fixed 128 KiB (glibc's initial value) turns that off. Measured with
 * `npm run bench -- --memory-only`, five runs each: the embedded process held 187–202 MB before its
 * 1,000 slow streams against 215–252 without, and peaked at 317–370 MB against 395–436; its CPU per short
 * request did not grow (254 against 266 µs in one A/B pair of `--data-plane`). The scaled data plane,
 * which runs no PGlite, showed no change, so it is not set there.
 */
export const PGLITE_PROCESS_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({ MALLOC_TRIM_THRESHOLD_: '131072' });

/** `environment` with PGLITE_PROCESS_ENVIRONMENT added where it sets nothing of its own (an operator's value wins). */
export function withPgliteProcessEnvironment<T extends Record<string, string | undefined>>(environment: T): T {
  const result: Record<string, string | undefined> = { ...environment };
  for (const [name, value] of Object.entries(PGLITE_PROCESS_ENVIRONMENT)) {
    if (result[name] === undefined || result[name] === '') result[name] = value;
  }
  return result as T;
}
