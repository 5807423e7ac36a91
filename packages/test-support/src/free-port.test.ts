import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ephemeralRange, freePort, freePortBetween } from './free-port.js';

const servers: net.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
const listenOn = (port: number) =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    servers.push(server);
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port));
  });

describe('freePort', () => {
  it('gives a port a server can listen on, outside the range outgoing connections use', async () => {
    const port = await freePort();
    await expect(listenOn(port)).resolves.toBe(port);
    const range = ephemeralRange();
    if (range) expect(port < range[0] || port > range[1]).toBe(true);
  });

  it('passes over a port that is taken and picks another', async () => {
    const taken = await listenOn(await freePort());
    // The first draw lands on the taken port, the next on the port just above it.
    const draws = [0, 0.999];
    let drawn = 0;
    const port = await freePortBetween(taken, taken + 1, () => (drawn++, draws.shift() ?? 0.999));
    expect(port).toBe(taken + 1);
    expect(drawn).toBe(2);
  });

  it('gives up (undefined) when every draw is taken', async () => {
    const taken = await listenOn(0);
    await expect(freePortBetween(taken, taken, Math.random)).resolves.toBeUndefined();
  });

  it("reads the kernel's range, and nothing from a file that is missing or malformed", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-free-port-'));
    try {
      const file = path.join(folder, 'range');
      fs.writeFileSync(file, '32768\t60999\n');
      expect(ephemeralRange(file)).toEqual([32768, 60999]);
      fs.writeFileSync(file, 'not a range\n');
      expect(ephemeralRange(file)).toBeUndefined();
      fs.writeFileSync(file, '60999 32768\n');
      expect(ephemeralRange(file)).toBeUndefined();
      expect(ephemeralRange(path.join(folder, 'missing'))).toBeUndefined();
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
