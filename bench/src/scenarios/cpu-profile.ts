// The CPU profile behind scenario 3: each data plane restarted with --cpu-prof, a shortened scenario 2
// against it, then stopped so V8 writes the profile, which is summarised for the report. Restarts of
// the modes run in parallel; the loads one after the other.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DataPlaneOptions, RouterSystem } from '../infra/router-system.js';
import { runThroughput } from '../load/throughput-load.js';
import type { RequestSpec } from '../load/targets.js';
import { monotonicMicros, summarizeCpuProfile, type ProfileSummary, type ProfileWindow } from '../report/cpu-profile-summary.js';

export interface ProfileResult extends ProfileSummary {
  mode: string;
  requests: number;
  seconds: number;
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
        const file = fs.readdirSync(directories[index]!).find((name) => name.endsWith('.cpuprofile'));
        if (file) {
          results.push({ mode: label ?? router.mode, ...runs[index]!, ...summarizeCpuProfile(path.join(directories[index]!, file), 15, windows[index]) });
          // For reading the whole profile afterwards (e.g. in Chrome DevTools): VR_BENCH_KEEP_PROFILES=<directory>.
          const keep = process.env.VR_BENCH_KEEP_PROFILES;
          if (keep) {
            fs.mkdirSync(keep, { recursive: true });
            fs.copyFileSync(path.join(directories[index]!, file), path.join(keep, `${(label ?? router.mode).replace(/\W+/g, '-')}.cpuprofile`));
          }
        }
        fs.rmSync(directories[index]!, { recursive: true, force: true });
      });
      return results;
    },
  };
}
