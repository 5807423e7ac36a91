// Reads what the kernel knows about processes: CPU time (utime + stime) and resident memory, from
// /proc. Linux only; elsewhere the figures are reported as unavailable rather than guessed.
import fs from 'node:fs';
import os from 'node:os';

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat. 100 on every Linux this runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

export const procAvailable = fs.existsSync('/proc/self/stat');

/** CPU seconds a process has used so far (user + system), or undefined if it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces; fields are counted after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

export function rssBytes(pid: number): number | undefined {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+) kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Pids whose command name is `name` (e.g. postgres, redis-server): only read, never signalled. */
export function pidsByName(name: string): number[] {
  if (!procAvailable) return [];
  const pids: number[] = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === name) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/**
 * Connection attempts the kernel has dropped since boot because a listening socket's accept queue was full
 * (`TcpExt: ListenOverflows` in /proc/net/netstat; all sockets on the machine). Each is a client whose SYN
 * went unanswered and who retries a second or more later.
 */
export function listenOverflows(): number | undefined {
  try {
    const lines = fs.readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((line) => line.startsWith('TcpExt:'));
    if (lines.length < 2) return undefined;
    const names = lines[0]!.trim().split(/\s+/);
    const values = lines[1]!.trim().split(/\s+/);
    const index = names.indexOf('ListenOverflows');
    return index === -1 ? undefined : Number(values[index]);
  } catch {
    return undefined;
  }
}

/**
 * Connections the kernel has completed on a listening TCP port that its process has not yet accepted
 * (the accept queue: `rx_queue` of the LISTEN row in /proc/net/tcp, or tcp6), summed over the port's
 * listening sockets of that family. A client in it has sent its request and waits for a process that is not taking
 * connections off the queue, typically because its event loop is not running.
 *
 * The kernel lists listening sockets before connected ones, so only the file's head is read: the whole
 * file, at 1,000 slow streams (~4,000 sockets on the machine), took 12-15 ms of the load generator's
 * thread per read; its listening rows, about 0.3 ms.
 */
export function acceptQueueLength(port: number, family: 'ipv4' | 'ipv6' = 'ipv4'): number | undefined {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  // One family's file: the other's walks every socket of the machine looking for its own (~2 ms at 4,000).
  let fd: number;
  try {
    fd = fs.openSync(family === 'ipv4' ? '/proc/net/tcp' : '/proc/net/tcp6', 'r');
  } catch {
    return undefined;
  }
  try {
    let total = 0;
    let pending = '';
    let header = true;
    for (;;) {
      const read = fs.readSync(fd, listenReadBuffer, 0, listenReadBuffer.length, null);
      if (read === 0) return total;
      const lines = (pending + listenReadBuffer.toString('latin1', 0, read)).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (header) {
          header = false;
          continue;
        }
        // sl local_address rem_address st tx_queue:rx_queue ...
        const fields = line.trim().split(/\s+/);
        if (fields.length < 5) continue;
        if (fields[3] !== '0A') return total;
        if (fields[1]!.endsWith(`:${hexPort}`)) total += Number.parseInt(fields[4]!.split(':')[1]!, 16);
      }
    }
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

const listenReadBuffer = Buffer.alloc(16 * 1024);

/**
 * Nanoseconds one thread has run on a CPU and has waited, runnable, for one (`/proc/<pid>/task/<tid>/schedstat`);
 * the main thread by default. Undefined when the kernel does not keep them or the thread is gone.
 */
export function threadSchedule(pid: number, tid = pid): { runNs: number; waitNs: number } | undefined {
  try {
    const [run, wait] = fs.readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
    return Number.isFinite(run) && Number.isFinite(wait) ? { runNs: run!, waitNs: wait! } : undefined;
  } catch {
    return undefined;
  }
}

/** Kernel memory held by TCP socket buffers right now (all sockets), from /proc/net/sockstat. */
export function kernelTcpBytes(): number | undefined {
  try {
    const match = /^TCP:.* mem (\d+)/m.exec(fs.readFileSync('/proc/net/sockstat', 'utf8'));
    return match ? Number(match[1]) * 4096 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU seconds of several named groups of processes, sampled together so a delta covers one window. */
export class CpuMeter {
  readonly #groups: Map<string, () => number[]>;
  #start = new Map<string, Map<number, number>>();
  #startedAt = 0;

  constructor(groups: Record<string, () => number[]>) {
    this.#groups = new Map(Object.entries(groups));
  }

  start(): void {
    this.#startedAt = performance.now();
    this.#start = new Map([...this.#groups].map(([name, pids]) => [name, new Map(pids().map((pid) => [pid, cpuSeconds(pid) ?? 0]))]));
  }

  /** CPU seconds per group since start(); processes born meanwhile count from zero. */
  stop(): { wallSeconds: number; cpu: Record<string, number> } {
    const cpu: Record<string, number> = {};
    for (const [name, pids] of this.#groups) {
      const before = this.#start.get(name) ?? new Map<number, number>();
      cpu[name] = pids().reduce((sum, pid) => sum + Math.max(0, (cpuSeconds(pid) ?? 0) - (before.get(pid) ?? 0)), 0);
    }
    return { wallSeconds: (performance.now() - this.#startedAt) / 1000, cpu };
  }
}

function tcpWriteBufferMax(): string | undefined {
  try {
    const maximum = Number(fs.readFileSync('/proc/sys/net/ipv4/tcp_wmem', 'utf8').trim().split(/\s+/)[2]);
    return `${(maximum / 1048576).toFixed(0)} MiB`;
  } catch {
    return undefined;
  }
}

export function machineSummary() {
  const cpus = os.cpus();
  return {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    kernel: `${os.type()} ${os.release()}`,
    tcpWriteBufferMax: tcpWriteBufferMax(),
  };
}

/**
 * Waits until a freshly started process stops burning CPU on start-up work (module compilation, the
 * local speech engine's worker), so the first measurements do not pay for it. Gives up after `maxMs`.
 */
export async function waitUntilQuiet(pid: number, maxMs = 15_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  let previous = cpuSeconds(pid);
  while (Date.now() < deadline && previous !== undefined) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = cpuSeconds(pid);
    if (now === undefined || now - previous < 0.05) return;
    previous = now;
  }
}

/**
 * Whether scenarios 1-2 wait for an idle machine before each round (the full run; the quick run's
 * numbers are not read, so it does not wait). Live binding: set once at start by setIdleBetweenRounds.
 */
export let idleBetweenRounds = false;
export function setIdleBetweenRounds(enabled: boolean): void {
  idleBetweenRounds = enabled;
}

/** Busy and total jiffies of all CPUs, from the first line of /proc/stat. */
function machineJiffies(): { busy: number; total: number } | undefined {
  try {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle and iowait are the 4th and 5th numbers.
    return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
  } catch {
    return undefined;
  }
}

/**
 * Waits until the whole machine is idle (under `maxBusyShare` of its CPU time over a 200 ms window),
 * so a round does not share the cores with the work the previous round left behind (the scaled
 * worker's settlement backlog, PostgreSQL's writes). Returns how long it waited; gives up after `maxMs`.
 */
export async function waitForIdleMachine(maxMs = 10_000, maxBusyShare = 0.08): Promise<number> {
  const started = Date.now();
  let previous = machineJiffies();
  while (previous && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    const now = machineJiffies();
    if (!now) break;
    const total = now.total - previous.total;
    if (total > 0 && (now.busy - previous.busy) / total < maxBusyShare) break;
    previous = now;
  }
  return Date.now() - started;
}
