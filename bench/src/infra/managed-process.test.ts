// A benchmark run that fails must not leave the servers it started running (a failed start of one router
// mode once left the other's three processes up for hours, taking CPU from every later measurement).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startProcess, stopProcess } from './managed-process.js';
import { rssBytes } from './proc-stats.js';

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

  it('samples the highest RSS of a process while it starts, until startupDone(), and only where asked', async () => {
    const MB = 1024 * 1024;
    // Touches 160 MB while it "starts", frees it, says so, and touches 320 MB once it "serves".
    const script = `
      let big = Buffer.alloc(160 * ${MB}, 1);
      setTimeout(() => {
        big = undefined;
        gc();
        console.log(JSON.stringify({ announce: 'started' }));
        setTimeout(() => { globalThis.later = Buffer.alloc(320 * ${MB}, 1); }, 1_000);
      }, 800);
      setTimeout(() => {}, 60_000);
    `;
    const sampled = startProcess('startup-peak', ['--expose-gc', '-e', script], {}, [], process.execPath, { sampleStartup: true });
    const unsampled = startProcess('startup-peak-off', ['-e', 'setTimeout(() => {}, 60_000)'], {});
    try {
      await sampled.announcement();
      await new Promise((resolve) => setTimeout(resolve, 300));
      const settled = rssBytes(sampled.pid)!;
      sampled.startupDone();
      const peak = sampled.startupPeakRss()!;
      expect(peak).toBeGreaterThan(160 * MB);
      expect(settled).toBeLessThan(peak - 100 * MB);
      // What the process takes after its start-up is not counted.
      const deadline = Date.now() + 10_000;
      while ((rssBytes(sampled.pid) ?? 0) < 320 * MB && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(rssBytes(sampled.pid)).toBeGreaterThan(320 * MB);
      expect(sampled.startupPeakRss()).toBe(peak);
      expect(unsampled.startupPeakRss()).toBeUndefined();
    } finally {
      await Promise.all([stopProcess(sampled), stopProcess(unsampled)]);
    }
  });
});
