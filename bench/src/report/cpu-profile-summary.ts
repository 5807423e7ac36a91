// Summarises a V8 .cpuprofile: self time by function (top N) and by package, as shares of the time
// the process was not idle. Answers "where does the data plane's CPU go" without opening DevTools.
// Given the measured load's window, only the samples taken inside it count: `--cpu-prof` profiles the
// process from its start, so module loading and the warm-up would otherwise share the table.
import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** Microseconds on the monotonic clock, the one process.hrtime() reads. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span on the monotonic clock in microseconds (process.hrtime.bigint() / 1000), shared by every process here. */
export interface ProfileWindow {
  startMicros: number;
  endMicros: number;
}

/** Now on the clock V8 stamps profile samples with. */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

export interface ProfileEntry {
  name: string;
  where: string;
  selfMs: number;
  percent: number;
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  topFunctions: ProfileEntry[];
  byPackage: ProfileEntry[];
  /** True when only the samples inside the measured load's window were counted. */
  windowed?: boolean;
}

/**
 * The thread a `--cpu-prof` file was written for: Node names each
 * `CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile`, thread 0 being the main thread.
 */
export function profileThreadId(fileName: string): number | undefined {
  const match = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(fileName);
  return match ? Number(match[1]) : undefined;
}

/** Turns a script URL into something a reader recognises: a workspace path, a package, or node's own. */
export function shortLocation(url: string): { where: string; owner: string } {
  if (!url) return { where: '', owner: '(native / V8)' };
  if (url.startsWith('node:')) return { where: url, owner: 'node core' };
  // Compiled WebAssembly (undici's HTTP parser; PGlite's PostgreSQL), named by module hash only.
  if (url.startsWith('wasm://')) return { where: url, owner: '(WebAssembly)' };
  const path = url.replace(/^file:\/\//, '');
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (pnpm) return { where: `${pnpm[1]}/${pnpm[2]}`, owner: pnpm[1]! };
  const nodeModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (nodeModules) return { where: `${nodeModules[1]}/${nodeModules[2]}`, owner: nodeModules[1]! };
  const workspace = /\/(apps|packages)\/([^/]+)\/(.*)$/.exec(path);
  if (workspace) return { where: `${workspace[1]}/${workspace[2]}/${workspace[3]}`, owner: `@voice-router/${workspace[2]}` };
  return { where: path, owner: 'other' };
}

/**
 * `window`: count only the samples taken inside it. A profile with no sample there (a clock that does
 * not match) is summarised whole, and says so (`windowed` false).
 */
export function summarizeCpuProfile(file: string, top = 15, window?: ProfileWindow): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  return summarizeProfile(profile, top, window);
}

export function summarizeProfile(profile: CpuProfile, top = 15, window?: ProfileWindow): ProfileSummary {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  // Each sample lasts until the next one; the last gets the average interval. Sample i was taken at
  // startTime + the sum of the deltas up to and including its own.
  const average = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0) / Math.max(1, profile.timeDeltas.length);
  const tally = (inside: (at: number) => boolean) => {
    const selfMicros = new Map<number, number>();
    let at = profile.startTime;
    profile.samples.forEach((id, index) => {
      at += profile.timeDeltas[index] ?? 0;
      if (!inside(at)) return;
      const duration = index + 1 < profile.timeDeltas.length ? profile.timeDeltas[index + 1]! : average;
      selfMicros.set(id, (selfMicros.get(id) ?? 0) + Math.max(0, duration));
    });
    return selfMicros;
  };
  let selfMicros = window ? tally((at) => at >= window.startMicros && at < window.endMicros) : new Map<number, number>();
  const windowed = selfMicros.size > 0;
  if (!windowed) selfMicros = tally(() => true);
  const byFunction = new Map<string, { name: string; where: string; micros: number }>();
  const byOwner = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, micros] of selfMicros) {
    const frame = nodes.get(id)!.callFrame;
    total += micros;
    if (frame.functionName === '(idle)') {
      idle += micros;
      continue;
    }
    const { where, owner } = shortLocation(frame.url);
    const name = frame.functionName || '(anonymous)';
    const key = `${name}@${where}:${frame.lineNumber}`;
    const entry = byFunction.get(key) ?? { name, where: where ? `${where}:${frame.lineNumber + 1}` : '', micros: 0 };
    entry.micros += micros;
    byFunction.set(key, entry);
    const ownerName = frame.url ? owner : name.startsWith('(') ? name : '(native / V8)';
    byOwner.set(ownerName, (byOwner.get(ownerName) ?? 0) + micros);
  }
  const busy = Math.max(1, total - idle);
  const entry = (name: string, where: string, micros: number): ProfileEntry => ({
    name, where, selfMs: Math.round(micros / 100) / 10, percent: Math.round((micros / busy) * 1000) / 10,
  });
  return {
    totalMs: Math.round(total / 1000),
    idleMs: Math.round(idle / 1000),
    topFunctions: [...byFunction.values()].sort((a, b) => b.micros - a.micros).slice(0, top).map((item) => entry(item.name, item.where, item.micros)),
    byPackage: [...byOwner.entries()].sort((a, b) => b[1] - a[1]).slice(0, 12).map(([owner, micros]) => entry(owner, '', micros)),
    windowed,
  };
}
