// Reference (2): the thinnest streaming proxy Node can run: uWebSockets.js in front, an undici Pool
// behind, no auth, no ledger, no parsing. Whatever the router adds beyond this is the router's own cost.
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import type * as UwsTypes from '@trufflesuite/uws-js-unofficial';

const require = createRequire(import.meta.url);
const packageDirectory = path.dirname(path.dirname(require.resolve('@trufflesuite/uws-js-unofficial')));
const uws = require(path.join(packageDirectory, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`)) as typeof UwsTypes;

const { values } = parseArgs({ options: { upstream: { type: 'string' }, connections: { type: 'string', default: '2048' } } });
// Enough upstream connections that the pool never queues: this is the physical limit, not a policy.
const pool = new Pool(values.upstream!, { connections: Number(values.connections), pipelining: 1, keepAliveTimeout: 30_000 });
const FORWARDED = ['authorization', 'content-type', 'accept'];
const statusLine = (status: number) => `${status} ${status === 200 ? 'OK' : 'Upstream Status'}`;

const app = uws.App();
app.post('/*', (res, req) => {
  const requestPath = req.getUrl();
  const headers: Record<string, string> = {};
  for (const name of FORWARDED) {
    const value = req.getHeader(name);
    if (value) headers[name] = value;
  }
  const state = { aborted: false, wake: undefined as (() => void) | undefined };
  const abort = new AbortController();
  res.onAborted(() => {
    state.aborted = true;
    state.wake?.();
    abort.abort();
  });
  const chunks: Buffer[] = [];
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (isLast) void forward(Buffer.concat(chunks));
  });
  async function forward(body: Buffer): Promise<void> {
    try {
      const upstream = await pool.request({ method: 'POST', path: requestPath, headers, body, signal: abort.signal });
      let headersWritten = false;
      for await (const chunk of upstream.body as AsyncIterable<Buffer>) {
        if (state.aborted) return;
        let writable = true;
        res.cork(() => {
          if (!headersWritten) {
            headersWritten = true;
            res.writeStatus(statusLine(upstream.statusCode)).writeHeader('content-type', String(upstream.headers['content-type'] ?? 'application/octet-stream'));
          }
          writable = res.write(chunk);
        });
        if (!writable) {
          await new Promise<void>((resolve) => {
            state.wake = resolve;
            res.onWritable(() => {
              resolve();
              return true;
            });
          });
        }
      }
      if (!state.aborted) res.cork(() => (headersWritten ? res.end() : res.writeStatus(statusLine(upstream.statusCode)).end()));
    } catch {
      if (!state.aborted) res.cork(() => res.writeStatus('502 Bad Gateway').end());
    }
  }
});
app.listen('127.0.0.1', 0, (listenSocket) => {
  if (!listenSocket) throw new Error('bare proxy cannot listen');
  const port = uws.us_socket_local_port(listenSocket);
  process.stdout.write(`${JSON.stringify({ announce: 'bare-proxy', baseUrl: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
process.once('SIGTERM', () => process.exit(0));
