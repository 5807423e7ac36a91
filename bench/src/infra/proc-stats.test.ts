// What the benchmark reads from the kernel about connection attempts it refused or left waiting, and about
// how a process's main thread got the CPU.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { acceptQueueLength, listenOverflows, threadSchedule } from './proc-stats.js';

describe('listenOverflows', () => {
  it("counts the SYNs the kernel dropped because a listening socket's accept queue was full", async () => {
    const server = net.createServer((socket) => socket.destroy());
    // A queue of two: this thread accepts nothing until every connect() below was issued.
    await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, resolve));
    const { port } = server.address() as AddressInfo;
    const before = listenOverflows();
    expect(before).toBeGreaterThanOrEqual(0);
    const sockets = Array.from({ length: 20 }, () => net.connect(port, '127.0.0.1').on('error', () => undefined));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The machine's other sockets can only add to the count.
      expect(listenOverflows()! - before!).toBeGreaterThanOrEqual(10);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('acceptQueueLength', () => {
  it('counts the connections a listening process has not accepted yet, and none once it has', async () => {
    // A server whose event loop stops right after it listens, until this test writes a byte to its stdin
    // (a blocking read): connections made meanwhile wait in the kernel's accept queue, then the server takes them.
    const child = spawn(process.execPath, ['-e', `
      const server = require('node:net').createServer((socket) => socket.on('error', () => {}));
      server.listen(0, '127.0.0.1', () => {
        // Written synchronously (stdout is a pipe), so the loop is already stopped when the port arrives.
        process.stdout.write(server.address().port + '\\n');
        require('node:fs').readSync(0, Buffer.alloc(1));
      });
    `], { stdio: ['pipe', 'pipe', 'inherit'] });
    const sockets: net.Socket[] = [];
    try {
      const [line] = await once(child.stdout!, 'data') as [Buffer];
      const port = Number(line.toString().trim());
      expect(acceptQueueLength(port)).toBe(0);
      for (let index = 0; index < 3; index += 1) sockets.push(net.connect(port, '127.0.0.1').on('error', () => undefined));
      await Promise.all(sockets.map((socket) => once(socket, 'connect')));
      expect(acceptQueueLength(port)).toBe(3);
      // Another family's sockets and another port's queue are not counted.
      expect(acceptQueueLength(port, 'ipv6') ?? 0).toBe(0);
      expect(acceptQueueLength(port === 65535 ? 1 : port + 1) ?? 0).toBe(0);
      child.stdin!.write('x');
      const deadline = Date.now() + 10_000;
      while (acceptQueueLength(port) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(acceptQueueLength(port)).toBe(0);
    } finally {
      for (const socket of sockets) socket.destroy();
      child.kill();
    }
  });
});

describe('threadSchedule', () => {
  it("reads the time a process's main thread ran, which grows as it works", () => {
    const before = threadSchedule(process.pid);
    expect(before).toBeDefined();
    // Busy until the kernel has counted 20 ms of running (however often other work preempts this thread),
    // for at most 5 s of wall time.
    const until = performance.now() + 5_000;
    let after = threadSchedule(process.pid)!;
    while (after.runNs - before!.runNs < 20e6 && performance.now() < until) after = threadSchedule(process.pid)!;
    expect(after.runNs - before!.runNs).toBeGreaterThanOrEqual(20e6);
    expect(after.waitNs).toBeGreaterThanOrEqual(before!.waitNs);
    expect(threadSchedule(process.pid, 2 ** 22 + 7)).toBeUndefined();
  });
});
