// The CPU profile behind scenario 3: each data plane restarted with --cpu-prof, a shortened scenario 2
// against it, then stopped so V8 writes the profile, which is summarised for the report. Restarts of
// the modes run in parallel; the loads one after the other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataPlaneOptions, RouterSystem } from '../infra/router-system.js';
import { runThroughput } from '../load/throughput-load.js';
import type { RequestSpec } from '../load/targets.js';
import { monotonicMicros, profileThreadId, summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from '../report/cpu-profile-summary.js';

/** One of the process's worker threads, profiled over the same window as its main thread. */
export interface ThreadProfile extends ProfileSummary {
  /** Node's thread id (the main thread is 0). */
  thread: number;
}

/** The main thread's summary; `threads`, the process's worker threads (PGlite's in the embedded process). */
export interface ProfileResult extends ProfileSummary {
  mode: string;
  requests: number;
  seconds: number;
  threads?: ThreadProfile[];
}

export interface ProfiledRouter {
  router: RouterSystem;
  specFor: (client: number) => RequestSpec;
  /** How the profiled data plane is started (e.g. on Node 24), and the name its profile is reported under. */
  launch?: DataPlaneOptions;
  label?: string;
}

export interface ProfilingSession {
  /** Stops the profiled data planes (V8 writes the profiles on exit) and summarises them. */
  finish(): Promise<ProfileResult[]>;
}

/**
 * Restarts every data plane with --cpu-prof (started as its `launch` says) and runs the load. The quick
 * run keeps these processes for the next scenario and finishes later, saving a restart; the full run
 * finishes at once so the profile holds nothing but this load.
 */
export async function startProfiling(
  routers: ProfiledRouter[], options: { connections: number; seconds: number; warmupSeconds: number },
): Promise<ProfilingSession> {
  const directories = routers.map(() => fs.mkdtempSync(path.join(os.tmpdir(), 'vr-bench-profile-')));
  await Promise.all(routers.map(({ router }) => router.stopDataPlane()));
  await Promise.all(routers.map(({ router, launch }, index) => router.startDataPlane({ ...launch, cpuProfileDirectory: directories[index] })));
  const runs: Array<{ requests: number; seconds: number }> = [];
  const windows: ProfileWindow[] = [];
  for (const { router, specFor } of routers) {
    // A short warm-up so the profile shows steady state more than JIT compilation; the summary counts
    // only the samples of the measured load after it (not start-up, not the warm-up).
    if (options.warmupSeconds > 0) await runThroughput(router.baseUrl, specFor, options.connections, options.warmupSeconds);
    const startMicros = monotonicMicros();
    runs.push(await runThroughput(router.baseUrl, specFor, options.connections, options.seconds));
    windows.push({ startMicros, endMicros: monotonicMicros() });
  }
  return {
    async finish() {
      await Promise.all(routers.map(({ router }) => router.stopDataPlane()));
      const results: ProfileResult[] = [];
      routers.forEach(({ router, label }, index) => {
        const directory = directories[index]!;
        // Node writes one profile per thread: the main thread's first, then each worker thread's (PGlite's,
        // in the embedded process, whose CPU counts in the process's µs per request like the main thread's).
        const files = fs.readdirSync(directory).filter((name) => name.endsWith('.cpuprofile'))
          .map((name) => ({ name, thread: profileThreadId(name) ?? Number.MAX_SAFE_INTEGER }))
          .sort((a, b) => a.thread - b.thread);
        const [main, ...workers] = files;
        if (main) {
          const summarize = (name: string) => summarizeCpuProfile(path.join(directory, name), 15, windows[index]);
          results.push({
            mode: label ?? router.mode, ...runs[index]!, ...summarize(main.name),
            ...(workers.length ? { threads: workers.map(({ name, thread }) => ({ thread, ...summarize(name) })) } : {}),
          });
          // For reading the whole profiles afterwards (e.g. in Chrome DevTools): VR_BENCH_KEEP_PROFILES=<directory>.
          const keep = process.env.VR_BENCH_KEEP_PROFILES;
          if (keep) {
            fs.mkdirSync(keep, { recursive: true });
            const base = (label ?? router.mode).replace(/\W+/g, '-');
            for (const { name, thread } of files) {
              fs.copyFileSync(path.join(directory, name), path.join(keep, `${base}${name === main.name ? '' : `-thread-${thread}`}.cpuprofile`));
            }
          }
        }
        fs.rmSync(directory, { recursive: true, force: true });
      });
      return results;
    },
  };
}
