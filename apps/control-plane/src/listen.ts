// Starts an Express app on a host and port and reports the port it got.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

export async function listen(app: Express, host: string, port: number): Promise<{ port: number; close(): Promise<void> }> {
  const server = http.createServer(app);
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
