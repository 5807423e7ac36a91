// One process per PGlite data dir: PGlite has no lock of its own, and two processes writing one data
// dir corrupt it. A pid file beside the data dir (`<dir>.pid`, created with O_EXCL) marks the owner;
// a file left by a process that is gone (crash, kill -9, container restart) is taken over. As in
// PostgreSQL's postmaster.pid, a pid equal to ours or our parent's is a leftover of an earlier run.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLockedError extends Error {
  override readonly name = 'DataDirLockedError';
  constructor(readonly dataDir: string, readonly pid: number) {
    super(
      `the data dir ${dataDir} is in use by another process (pid ${pid}); PGlite allows one process per data dir. ` +
        'Stop that process first. Operator commands (npm run admin) reach a running service through its loopback endpoint.',
    );
  }
}

export interface DataDirLock {
  file: string;
  release(): void;
}

/** Lock files held by this process, so opening one data dir twice in-process is refused too. */
const heldHere = new Set<string>();

/** Whether a process with this id exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export function dataDirLockFile(dataDir: string): string {
  const resolved = path.resolve(dataDir);
  return path.join(path.dirname(resolved), `${path.basename(resolved)}.pid`);
}

export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  const file = dataDirLockFile(dataDir);
  if (heldHere.has(file)) throw new DataDirLockedError(path.resolve(dataDir), process.pid);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 1; attempt <= 20; attempt += 1) {
    try {
      const descriptor = fs.openSync(file, 'wx', 0o644);
      try {
        fs.writeSync(descriptor, `${process.pid}\n`);
        fs.fsyncSync(descriptor);
      } finally {
        fs.closeSync(descriptor);
      }
      heldHere.add(file);
      const release = () => {
        process.removeListener('exit', release);
        if (!heldHere.delete(file)) return;
        if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
      };
      // A process that exits without closing the database (an uncaught error) still leaves no file behind.
      process.once('exit', release);
      return { file, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = readPid(file);
    if (pid === undefined && attempt < 10) {
      // Empty: another process has just created it and is writing its pid.
      await new Promise((resolve) => setTimeout(resolve, 50));
      continue;
    }
    if (pid !== undefined && pid !== process.pid && pid !== process.ppid && processAlive(pid)) {
      throw new DataDirLockedError(path.resolve(dataDir), pid);
    }
    // Left behind by a process that is gone: take it over.
    fs.rmSync(file, { force: true });
  }
  throw new Error(`could not create the lock file ${file}`);
}
