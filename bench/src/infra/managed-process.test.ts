// A benchmark run that fails must not leave the servers it started running (a failed start of one router
// mode once left the other's three processes up for hours, taking CPU from every later measurement).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';

// A plain Node process cannot load the TypeScript source: this runs the build (npm run build).
const built = new URL('../../dist/infra/managed-process.js', import.meta.url);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('managed processes', () => {
  it.runIf(fs.existsSync(built))('are ended when the benchmark process exits on an error', async () => {
    const script = `
      const { startProcess } = await import(${JSON.stringify(built.href)});
      const server = startProcess('sleeper', ['-e', 'setTimeout(() => {}, 60000)'], {});
      console.log(JSON.stringify({ pid: server.child.pid }));
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw new Error('a scenario failed');
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('a scenario failed');
    const { pid } = JSON.parse(run.stdout.trim().split('\n')[0]!) as { pid: number };
    const deadline = Date.now() + 5_000;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const survived = alive(pid);
    if (survived) process.kill(pid, 'SIGKILL');
    expect(survived).toBe(false);
  });
});
