// Environment and Node flags for a process that runs PGlite (the embedded service), set by whoever starts
// it: glibc reads the environment and V8 sizes its heap before any JavaScript runs. Only a dependency-free
// import, so a launcher can load this file alone.
import { nodeFlagsNotGiven } from '@voice-router/service-kit/node-flags';

/**
 * glibc's malloc settings for the embedded process. Both fix a threshold that glibc otherwise moves itself:
 * setting either turns off its dynamic adjustment.
 *
 * `MALLOC_TRIM_THRESHOLD_`: glibc raises its mmap and trim thresholds as the process frees large blocks
 * (up to 32 and 64 MiB), so memory the embedded process freed (PGlite's start-up and queries among it) was
 * kept rather than returned to the system. A fixed 128 KiB (glibc's initial value) turns that off. Measured with
 * `npm run bench -- --memory-only`, five runs each: the embedded process held 187–202 MB before its
 * 1,000 slow streams against 215–252 without, and peaked at 317–370 MB against 395–436; its CPU per short
 * request did not grow (254 against 266 µs in one A/B pair of `--data-plane`). The scaled data plane,
 * which runs no PGlite, showed no change, so it is not set there.
 *
 * `MALLOC_MMAP_THRESHOLD_`: blocks of 32 KiB and more get their own mapping, returned to the system when
 * freed, instead of a place in an arena. What the arenas kept were blocks of 32 KiB to 40 KiB (the thresholds
 * below tell), which fits V8's zones, the working memory of its parsers and compilers, grown in segments of
 * up to 32 KiB: allocated and freed by the thousand on V8's threads while the embedded process starts (its
 * own JavaScript and PGlite's WebAssembly), they stayed resident in those threads' arenas as holes the
 * process never refilled. Session 36, the service started as the benchmark starts it and read from `/proc/<pid>/smaps`
 * once quiet: the arenas held 8.7 MB in four starts against 44–78 MB in five without, and RSS was 191–195 MB
 * against 219–255 in seven (16 KiB did the same; 24 KiB in one start of two; 40 and 48 KiB not at all).
 * glibc's `malloc_trim(0)`, called into a running service without the setting, freed 28–50 MB: the same
 * memory. CPU per short request did not change (`--data-plane`, two alternating pairs: 178 and 192 µs with
 * it against 191 and 181 without).
 */
export const PGLITE_PROCESS_ENVIRONMENT: Readonly<Record<string, string>> = Object.freeze({
  MALLOC_TRIM_THRESHOLD_: '131072',
  MALLOC_MMAP_THRESHOLD_: '32768',
});

/** `environment` with PGLITE_PROCESS_ENVIRONMENT added where it sets nothing of its own (an operator's value wins). */
export function withPgliteProcessEnvironment<T extends Record<string, string | undefined>>(environment: T): T {
  const result: Record<string, string | undefined> = { ...environment };
  for (const [name, value] of Object.entries(PGLITE_PROCESS_ENVIRONMENT)) {
    if (result[name] === undefined || result[name] === '') result[name] = value;
  }
  return result as T;
}

/**
 * Node flags for the embedded process, before its script. At 1,000 slow streams what its peak holds beyond
 * its live data is garbage awaiting collection: a heap snapshot there found 49 MB live (~30 of it live at
 * rest too), while the main thread's heap as committed was 71–124 MB and the ArrayBuffers of passing audio
 * 15–66 MB. Measured with `npm run bench -- --memory-only` (session 36, the malloc settings above in
 * every run):
 * - `--max-semi-space-size=8` caps V8's young generation at 16 MiB (two semi-spaces of 8) instead of the 32
 *   it grows to under load (128 on Node 24). The main thread's heap peaked at 74–77 MB in three runs of four
 *   (124 in the fourth, whose old space grew to 103) against 87–91, the process at 252–290 MB against
 *   272–299. CPU per short request 202 and 210 µs against 199 and 201 (`--data-plane`, two alternating pairs
 *   on a slow host).
 * - `--heap-growing-percent=35` then has V8 collect the old generation once it has grown 35 % past what
 *   its last full collection kept, instead of up to several times that: promoted garbage, audio's
 *   ArrayBuffers among it, goes sooner. Peaks of 228 and 238 MB with 35, 242 and 243 with 50, 228 and 228
 *   with 20, against 248–280 (five runs) with the young generation capped alone. 20 cost 10–17 % more CPU
 *   per short request in two alternating `--data-plane` pairs; 50 showed no difference in two (250 against
 *   254 µs, 327 against 223 on a host slowing down), nor did 35 in one (235 against 238).
 * Each is left out when NODE_OPTIONS already gives it: an operator's value wins, and a flag on the command
 * line would override it.
 */
const PGLITE_PROCESS_NODE_FLAGS = ['--max-semi-space-size=8', '--heap-growing-percent=35'];

export function pgliteProcessNodeFlags(environment: Readonly<Record<string, string | undefined>>): string[] {
  return nodeFlagsNotGiven(PGLITE_PROCESS_NODE_FLAGS, environment);
}
