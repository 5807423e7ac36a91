// A loopback TCP proxy in front of a real server (PostgreSQL, Redis) so a test can stage an outage
// without stopping the shared server: cut() drops every open connection and refuses new ones (each
// is accepted and reset at once, as while a server restarts), restore() lets traffic through again.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Rewrites a URL (postgresql://…, redis://…) to go through the proxy. */
  urlFor(url: string): string;
  cut(): void;
  restore(): void;
  /** Connections accepted and forwarded since start (refused ones excluded). */
  forwarded(): number;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let refusing = false;
  let forwarded = 0;
  const server = net.createServer((client) => {
    if (refusing) {
      client.resetAndDestroy();
      return;
    }
    forwarded += 1;
    const upstream = net.connect(target.port, target.host);
    open.add(client);
    open.add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    urlFor(url) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    cut() {
      refusing = true;
      for (const socket of open) socket.resetAndDestroy();
      open.clear();
    },
    restore() {
      refusing = false;
    },
    forwarded: () => forwarded,
    close() {
      for (const socket of open) socket.destroy();
      open.clear();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
