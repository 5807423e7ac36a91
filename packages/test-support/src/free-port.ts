// A loopback port that is free now, for a process started later to listen on.
//
// The kernel's own answer (listen on port 0) comes from the ephemeral range, the range outgoing
// connections take their local ports from. Between our check and the child's listen, any connection on
// the machine (a test's HTTP client, a pool's PostgreSQL connection) can take that port, and the child
// then fails with EADDRINUSE / "cannot listen on …". So on Linux the port is picked below the ephemeral
// range (`/proc/sys/net/ipv4/ip_local_port_range`), where only explicit binds land, and checked by
// binding it. Elsewhere, or when no such port is found, the kernel's answer is used as before.
import fs from 'node:fs';
import net from 'node:net';

/** The lowest port picked: above the registered services most machines run (PostgreSQL, Redis, …). */
const LOWEST = 10_000;
const ATTEMPTS = 50;

export async function freePort(): Promise<number> {
  const ephemeral = ephemeralRange();
  if (ephemeral && ephemeral[0] - 1 > LOWEST) {
    const port = await freePortBetween(LOWEST, ephemeral[0] - 1);
    if (port !== undefined) return port;
  }
  return bindable(0) as Promise<number>;
}

/** A random port in [low, high] that could be bound on 127.0.0.1 just now; undefined after 50 tries. */
export async function freePortBetween(low: number, high: number, random: () => number = Math.random): Promise<number | undefined> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const candidate = low + Math.floor(random() * (high - low + 1));
    const port = await bindable(candidate);
    if (port !== undefined) return port;
  }
  return undefined;
}

/** [low, high] of the ports outgoing connections use, or undefined where the kernel does not say. */
export function ephemeralRange(file = '/proc/sys/net/ipv4/ip_local_port_range'): [number, number] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const [low = NaN, high = NaN] = text.trim().split(/\s+/).map(Number);
  return Number.isInteger(low) && Number.isInteger(high) && low > 0 && low <= high ? [low, high] : undefined;
}

/** Binds 127.0.0.1:port (0: any) and releases it; the port bound, or undefined if it was taken. */
function bindable(port: number): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', (error: NodeJS.ErrnoException) => {
      if (port !== 0 && (error.code === 'EADDRINUSE' || error.code === 'EACCES')) resolve(undefined);
      else reject(error);
    });
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}
