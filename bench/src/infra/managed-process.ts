// Child processes the benchmark owns: started with a clean environment, output kept for error
// messages, stopped by pid with SIGTERM (then SIGKILL) so nothing outlives the run.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rssBytes } from './proc-stats.js';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  output(): string;
  /** Resolves with the first stdout line that parses as JSON (processes announce their address this way). */
  announcement(): Promise<Record<string, unknown>>;
  /**
   * The highest RSS (bytes) seen while the process started: sampled every 100 ms from its spawn until
   * startupDone() (at most STARTUP_SAMPLING_MS). Undefined unless started with `sampleStartup`, or if no
   * sample was read.
   */
  startupPeakRss(): number | undefined;
  /** Ends the start-up sampling; the launcher calls it once the process serves and its start-up work is done. */
  startupDone(): void;
}

/** Start-up sampling stops by itself after this long, whether or not startupDone() was called. */
export const STARTUP_SAMPLING_MS = 60_000;

const MAX_KEPT_OUTPUT = 200_000;
const running = new Set<ChildProcess>();
// However this process ends (an error in a scenario, or one mode failing to start while the other was still
// starting, whose processes no `finally` knew of yet), no server it started outlives it: a Node process's
// children are not ended with it. A run whose embedded router failed to start left the scaled-out router's
// control plane, worker and data plane running, found hours later.
process.once('exit', () => {
  for (const child of running) child.kill('SIGTERM');
});

/** On Ctrl-C or SIGTERM, take every child down too: an interrupted run must not leave servers behind. */
export function stopChildrenOnSignals(onStop: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      for (const child of running) child.kill('SIGTERM');
      void onStop().finally(() => process.exit(130));
    });
  }
}

/** `DATA_PLANE_SERVER=node npm run bench` measures the data plane's node:http adapter on Node 20 too. */
// Settings an operator may vary between runs (`ALLOWANCE_MAX_MICROS=0 npm run bench` measures without allowances).
const inherited = Object.fromEntries(['DATA_PLANE_SERVER', 'ALLOWANCE_MAX_MICROS', 'ALLOWANCE_HOT_REQUESTS_PER_SECOND'].flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])));

// Each child's stdout goes to a file, not through a pipe to this process: this process is also the load
// generator, and a router logs a line per request (LOG_LEVEL=info, as operators run it), so reading those
// lines here took CPU from the load of exactly the systems that log, and a pipe this process was slow to
// read held their lines back. A container runtime or journald takes the lines in a process of its own;
// a file, written by the kernel's page cache, is the closest this machine has.
const logDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-bench-logs-'));
process.once('exit', () => fs.rmSync(logDirectory, { recursive: true, force: true }));
let started = 0;

/** The last `bytes` of a file (the whole of a short one). */
function tail(file: string, bytes: number): string {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const size = fs.fstatSync(fd).size;
      const length = Math.min(size, bytes);
      const buffer = Buffer.alloc(length);
      fs.readSync(fd, buffer, 0, length, size - length);
      return buffer.toString();
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function startProcess(
  name: string, args: string[], environment: Record<string, string>, nodeOptions: string[] = [], nodeBinary = process.execPath,
  options: { sampleStartup?: boolean } = {},
): ManagedProcess {
  const logFile = path.join(logDirectory, `${name}-${(started += 1)}.log`);
  const stdoutFd = fs.openSync(logFile, 'w');
  const child = spawn(nodeBinary, [...nodeOptions, ...args], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LOG_LEVEL: 'info', ...inherited, ...environment },
    stdio: ['ignore', stdoutFd, 'pipe'],
  });
  fs.closeSync(stdoutFd);
  running.add(child);
  // What the process needs while it starts (a compiler's working memory, a database opening) can exceed
  // what it holds once serving; a scenario that begins later does not see it.
  // Only where asked (the routers' serving processes): the samples cost the load generator a little CPU.
  let startupPeak: number | undefined;
  const sampleStartup = () => {
    const rss = child.pid === undefined ? undefined : rssBytes(child.pid);
    if (rss !== undefined) startupPeak = Math.max(startupPeak ?? 0, rss);
  };
  const startupSampler = options.sampleStartup ? setInterval(sampleStartup, 100) : undefined;
  startupSampler?.unref();
  const startupDeadline = startupSampler && setTimeout(() => clearInterval(startupSampler), STARTUP_SAMPLING_MS);
  startupDeadline?.unref();
  const stopStartupSampling = () => {
    clearInterval(startupSampler);
    clearTimeout(startupDeadline);
  };
  const startupDone = () => {
    if (!startupSampler) return;
    if (child.exitCode === null && child.signalCode === null) sampleStartup();
    stopStartupSampling();
  };
  child.once('exit', () => {
    running.delete(child);
    stopStartupSampling();
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
    if (errors.length > 2 * MAX_KEPT_OUTPUT) errors = errors.slice(-MAX_KEPT_OUTPUT);
  });
  const output = () => `${tail(logFile, MAX_KEPT_OUTPUT)}${errors.slice(-MAX_KEPT_OUTPUT)}`.slice(-MAX_KEPT_OUTPUT);
  // The announcement is among the first lines: read the file from the start until it appears.
  let announced: Record<string, unknown> | undefined;
  const readAnnouncement = (): Record<string, unknown> | undefined => {
    if (announced) return announced;
    for (const line of tail(logFile, Number.MAX_SAFE_INTEGER).split('\n').slice(0, -1)) {
      if (line.startsWith('{"announce"')) return (announced = JSON.parse(line) as Record<string, unknown>);
    }
    return undefined;
  };
  return {
    name,
    child,
    pid: child.pid!,
    output,
    startupPeakRss: () => startupPeak,
    startupDone,
    announcement: () =>
      new Promise((resolve, reject) => {
        const poll = () => {
          const found = readAnnouncement();
          if (found) return resolve(found);
          if (child.exitCode !== null || child.signalCode !== null) {
            return reject(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) before announcing itself:\n${output()}`));
          }
          setTimeout(poll, 20);
        };
        poll();
      }),
  };
}

export function stopProcess(managed: ManagedProcess, timeoutMs = 15_000): Promise<void> {
  const { child } = managed;
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function stopAll(managed: ManagedProcess[]): Promise<void> {
  await Promise.all(managed.map((item) => stopProcess(item)));
}

/** Polls `url` until it answers 2xx, failing early if one of `watched` exits. */
export async function waitUntilServing(url: string, watched: ManagedProcess[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const dead = watched.find((item) => item.child.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited early:\n${dead.output()}`);
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up:\n${watched.map((item) => item.output()).join('\n')}`);
}

/** Runs a process to completion and returns its stdout parsed from the first '{'. */
export function runToCompletion(name: string, args: string[], environment: Record<string, string>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const managed = startProcess(name, args, environment);
    managed.child.on('exit', (code) => {
      const text = managed.output();
      if (code !== 0) return reject(new Error(`${name} ${args.slice(1).join(' ')} failed (${code}): ${text}`));
      try {
        resolve(JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>);
      } catch (error) {
        reject(new Error(`${name} printed no JSON: ${text} (${(error as Error).message})`));
      }
    });
  });
}
