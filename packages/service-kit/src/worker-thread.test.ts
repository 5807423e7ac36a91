import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const built = new URL('../dist/worker-thread.js', import.meta.url);

interface Printed {
  /** The worker's own process.execArgv, its heap limit, and the process's. */
  workerExecArgv: string[];
  workerHeapLimitMb: number;
  processHeapLimitMb: number;
}

/** Starts `node <flags> <script>` (or `-e` with --input-type), whose worker reports what it runs with. */
function runWithFlags(flags: string[]): Printed {
  const workerSource = `
    import { parentPort } from 'node:worker_threads';
    import v8 from 'node:v8';
    parentPort.postMessage({ execArgv: process.execArgv, heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20) });
  `;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-worker-thread-'));
  try {
    const workerFile = path.join(directory, 'worker.mjs');
    fs.writeFileSync(workerFile, workerSource);
    const script = `
      import v8 from 'node:v8';
      const { startWorkerThread } = await import(${JSON.stringify(built.href)});
      const worker = startWorkerThread(new URL(${JSON.stringify(`file://${workerFile}`)}));
      const reply = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
      await worker.terminate();
      console.log(JSON.stringify({
        workerExecArgv: reply.execArgv, workerHeapLimitMb: reply.heapLimitMb,
        processHeapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20),
      }));
    `;
    const scriptFile = path.join(directory, 'start.mjs');
    fs.writeFileSync(scriptFile, script);
    const args = flags.some((flag) => flag.startsWith('--input-type')) ? [...flags, '-e', script] : [...flags, scriptFile];
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 30_000 });
    expect(child.stderr).not.toMatch(/ERR_WORKER_INVALID_EXEC_ARGV/);
    expect(child.status, child.stderr).toBe(0);
    return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Printed;
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}

describe.runIf(fs.existsSync(built))('startWorkerThread', () => {
  it('passes the process options on, V8 options included (the worker is not given an execArgv of its own)', () => {
    const printed = runWithFlags(['--max-old-space-size=512', '--no-warnings']);
    expect(printed.workerExecArgv).toEqual(['--max-old-space-size=512', '--no-warnings']);
    // Without the option the limit is several GB here.
    expect(printed.processHeapLimitMb).toBeLessThan(1024);
  });

  // process.execArgv holds `-e <script>` too there; a worker started from a file ignores it.
  it('drops --input-type, which a worker started from a file refuses, and keeps the rest', () => {
    const printed = runWithFlags(['--input-type=module', '--no-warnings']);
    expect(printed.workerExecArgv[0]).toBe('--no-warnings');
    expect(printed.workerExecArgv.filter((flag) => flag.startsWith('--input-type'))).toEqual([]);
  });

  it('drops --input-type in its two-word form too', () => {
    const printed = runWithFlags(['--input-type', 'module', '--no-warnings']);
    expect(printed.workerExecArgv[0]).toBe('--no-warnings');
    expect(printed.workerExecArgv).not.toContain('--input-type');
    expect(printed.workerExecArgv).not.toContain('module');
  });

  it('starts the worker without options of its own when the rest hold one a worker may not be given', () => {
    // An explicit execArgv with a V8 option is refused, so the worker gets none; the option still holds
    // process-wide.
    const printed = runWithFlags(['--input-type=module', '--max-old-space-size=512']);
    expect(printed.workerExecArgv).toEqual([]);
    expect(printed.processHeapLimitMb).toBeLessThan(1024);
  });
});
