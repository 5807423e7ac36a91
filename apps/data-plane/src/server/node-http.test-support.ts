// Helpers for the node:http adapter's suites: start an app on a free port, talk raw HTTP/1.1 to it.
import net from 'node:net';
import type { HttpServerModule, ListenSocket, TemplatedApp } from '../uws.js';
import { createNodeHttpServer, type NodeHttpAppOptions } from './node-http-app.js';

export interface RunningApp {
  port: number;
  close(): void;
}

export async function startApp(
  register: (app: TemplatedApp) => void, options: NodeHttpAppOptions = {}, server: HttpServerModule = createNodeHttpServer(options),
): Promise<RunningApp> {
  const app = server.App();
  register(app);
  const listenSocket = await new Promise<ListenSocket>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) => (socket ? resolve(socket) : reject(new Error('cannot listen')))));
  return { port: server.us_socket_local_port(listenSocket), close: () => server.us_listen_socket_close(listenSocket) };
}

export interface RawExchange {
  /** Everything the server sent. */
  text: string;
  /** True when the server closed the connection (rather than the client giving up waiting). */
  closedByServer: boolean;
}

/**
 * Writes `request` (raw bytes) on a fresh connection and collects what comes back until the server
 * closes it, or `settleMs` pass with nothing new once `expectResponses` responses have started.
 */
export function rawExchange(port: number, request: string, options: { expectResponses?: number; settleMs?: number } = {}): Promise<RawExchange> {
  const expected = options.expectResponses ?? 1;
  const settleMs = options.settleMs ?? 60;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let timer: NodeJS.Timeout | undefined;
    const finish = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ text, closedByServer });
    };
    const overall = setTimeout(() => reject(new Error(`no complete answer; got ${JSON.stringify(text)}`)), 10_000);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.split('HTTP/1.1 ').length - 1 >= expected) {
        clearTimeout(timer);
        timer = setTimeout(() => finish(false), settleMs);
      }
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => clearTimeout(overall));
    socket.on('error', reject);
    socket.write(request);
  });
}

export function get(target: string, headers: Record<string, string> = {}, method = 'GET'): string {
  const lines = Object.entries({ host: 'test', ...headers }).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return `${method} ${target} HTTP/1.1\r\n${lines}\r\n`;
}

/** Splits a raw HTTP/1.1 response into status, lower-cased headers and body. */
export function parseResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const split = text.indexOf('\r\n\r\n');
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const headers = Object.fromEntries(headerLines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) };
}
