// Reference (3): the shape most API gateways in Node have: node:http in front, fetch behind, the body
// piped through with drain-based backpressure. No auth or ledger either; the difference to the bare
// proxy is the price of the common stack.
import http from 'node:http';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { upstream: { type: 'string' } } });
const upstreamBase = values.upstream!;
const FORWARDED = ['authorization', 'content-type', 'accept'];

/** Resolves when the socket drains, or when the client is gone (then nothing will ever drain). */
function drainedOrClosed(response: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

const server = http.createServer({ keepAlive: true }, (request, response) => {
  void (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of request as AsyncIterable<Buffer>) chunks.push(chunk);
    const headers: Record<string, string> = {};
    for (const name of FORWARDED) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const abort = new AbortController();
    response.once('close', () => abort.abort());
    const upstream = await fetch(upstreamBase + (request.url ?? '/'), {
      method: request.method, headers, body: Buffer.concat(chunks), signal: abort.signal,
    });
    response.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream' });
    if (upstream.body) {
      for await (const chunk of upstream.body) {
        if (response.destroyed) break;
        if (!response.write(chunk)) await drainedOrClosed(response);
      }
    }
    response.end();
  })().catch(() => {
    if (!response.headersSent) response.writeHead(502).end();
    else response.destroy();
  });
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ announce: 'gateway', baseUrl: `http://127.0.0.1:${port}`, pid: process.pid })}\n`);
});
process.once('SIGTERM', () => process.exit(0));
