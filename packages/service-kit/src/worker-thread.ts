// Starting a worker thread with the process's own Node options, for every package that runs one (PGlite's
// thread in the ledger, eSpeak NG's synthesis pool). No imports beyond node:worker_threads, so a package
// can load this file alone (`@voice-router/service-kit/worker-thread`) without the logger and metrics.
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * A worker started with the process's options (`--cpu-prof` profiles it too).
 *
 * Node refuses a worker whose `execArgv` names a V8 or process-wide option (`node --max-old-space-size=512 …`
 * made the embedded service fail to start), but passes them on when `execArgv` is left out. So it is left out
 * unless `--input-type` must go: that one makes a worker started from a file fail (a process started with
 * `node --input-type=module -e …`). If the list without it is refused too, the worker starts with no options of
 * its own (V8's flags are the process's anyway).
 */
export function startWorkerThread(file: URL | string, options: Omit<WorkerOptions, 'execArgv'> = {}): Worker {
  const execArgv: string[] = [];
  for (let index = 0; index < process.execArgv.length; index++) {
    const flag = process.execArgv[index]!;
    if (flag === '--input-type') index++;
    else if (!flag.startsWith('--input-type=')) execArgv.push(flag);
  }
  if (execArgv.length === process.execArgv.length) return new Worker(file, options);
  try {
    return new Worker(file, { ...options, execArgv });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    return new Worker(file, { ...options, execArgv: [] });
  }
}
