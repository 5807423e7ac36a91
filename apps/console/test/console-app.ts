// Starts an Express app the way the control plane mounts the console (trust proxy on loopback,
// router under /console) on a random port, backed by the in-memory services.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { createConsoleRouter } from '../src/index.js';
import { MemoryConsoleServices } from './memory-services.js';

export interface RunningConsole {
  baseUrl: string;
  services: MemoryConsoleServices;
  close(): Promise<void>;
}

export async function startConsole(options: { cookieSecure?: 'auto' | boolean } = {}): Promise<RunningConsole> {
  const services = new MemoryConsoleServices();
  const app = express();
  app.set('trust proxy', 'loopback');
  app.use('/console', createConsoleRouter(services, { cookieSecure: options.cookieSecure ?? 'auto', onError: () => {} }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    services,
    close: () => new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
