// One process per PGlite data dir: a live owner is refused with its pid, a file left by a dead
// process is taken over, and closing the database removes the file.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { DataDirLockedError, dataDirLockFile, lockDataDir } from './data-dir-lock.js';

describe('the PGlite data dir lock', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-lock-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('refuses a data dir whose pid file names a live process, saying which', async () => {
    const dataDir = path.join(root, 'live', 'pglite');
    const owner = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      fs.mkdirSync(path.dirname(dataDir), { recursive: true });
      fs.writeFileSync(dataDirLockFile(dataDir), `${owner.pid}\n`);
      const error = await openDatabase({ kind: 'pglite', dataDir }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataDirLockedError);
      expect((error as DataDirLockedError).pid).toBe(owner.pid);
      expect((error as Error).message).toMatch(/in use by another process \(pid \d+\).*npm run admin/);
      expect(fs.existsSync(dataDir)).toBe(false);
    } finally {
      owner.kill('SIGKILL');
    }
  });

  it('takes over a pid file left by a process that is gone, and removes it on close', async () => {
    const dataDir = path.join(root, 'stale', 'pglite');
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.writeFileSync(dataDirLockFile(dataDir), `${gone.stdout}\n`);
    const database = await openDatabase({ kind: 'pglite', dataDir });
    expect(fs.readFileSync(dataDirLockFile(dataDir), 'utf8').trim()).toBe(String(process.pid));
    // The same process opening it again is refused too.
    await expect(lockDataDir(dataDir)).rejects.toBeInstanceOf(DataDirLockedError);
    await database.close();
    expect(fs.existsSync(dataDirLockFile(dataDir))).toBe(false);
    const again = await openDatabase({ kind: 'pglite', dataDir });
    await again.close();
  });

  it('takes over a pid file with our own pid left by an earlier run (a restarted container reuses pids)', async () => {
    const dataDir = path.join(root, 'own', 'pglite');
    fs.mkdirSync(path.dirname(dataDir), { recursive: true });
    fs.writeFileSync(dataDirLockFile(dataDir), `${process.pid}\n`);
    const lock = await lockDataDir(dataDir);
    lock.release();
    expect(fs.existsSync(lock.file)).toBe(false);
  });
});
