// What the benchmark reads from the kernel about connection attempts it refused.
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenOverflows } from './proc-stats.js';

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
