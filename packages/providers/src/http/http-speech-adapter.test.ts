// Transport edge cases the provider fakes do not model, served by a tiny purpose-built server.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { openAIDescriptor } from '../openai/openai-catalog.js';
import { parseOpenAIErrorBody } from '../openai/openai-error.js';
import { buildOpenAISpeechRequest } from '../openai/openai-speech-model.js';
import type { SpeechAdapter } from '../types.js';
import { collect, openAIInput, rejectionOf } from '../__fixtures__/speech-helpers.js';
import { createHttpSpeechAdapter, type HttpProviderDefinition } from './http-speech-adapter.js';

const definition: HttpProviderDefinition = {
  id: 'openai',
  defaultBaseUrl: 'https://api.openai.com',
  descriptor: openAIDescriptor,
  buildRequest: buildOpenAISpeechRequest,
  parseErrorBody: parseOpenAIErrorBody,
};

let server: Server | undefined;
let adapter: SpeechAdapter | undefined;
const seenPaths: string[] = [];

async function serve(handler: (request: IncomingMessage, response: ServerResponse) => void, basePath = ''): Promise<SpeechAdapter> {
  server = createServer((request, response) => {
    seenPaths.push(request.url ?? '');
    request.resume();
    request.on('end', () => handler(request, response));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  adapter = createHttpSpeechAdapter(definition, { apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}${basePath}`, firstByteTimeoutMs: 1000 });
  return adapter;
}

afterEach(async () => {
  await adapter?.close();
  adapter = undefined;
  const running = server;
  server = undefined;
  if (running) {
    running.closeAllConnections();
    await new Promise((resolve) => running.close(resolve));
  }
  seenPaths.length = 0;
});

const run = (target: SpeechAdapter) => target.synthesize(openAIInput(), { signal: new AbortController().signal });

describe('HTTP speech adapter transport', () => {
  it('reads at most a few KB of an error body and never echoes it', async () => {
    let bytesWritten = 0;
    const target = await serve((_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json', 'x-request-id': 'req_123' });
      const filler = Buffer.alloc(64 * 1024, 'a');
      // Keep writing while the client reads; it should hang up long before 16 MB.
      const write = () => {
        while (bytesWritten < 16 * 1024 * 1024) {
          bytesWritten += filler.length;
          if (!response.write(filler)) return void response.once('drain', write);
        }
        response.end();
      };
      response.on('close', () => undefined);
      write();
    });
    const error = (await rejectionOf(run(target))) as ProviderError;
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, upstreamRequestId: 'req_123' });
    expect(error.message).not.toContain('aaaa');
    expect(bytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it('reports Retry-After in milliseconds', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(429, { 'retry-after': '2', 'content-type': 'application/json' }).end('{"error":{"code":"rate_limit_exceeded"}}');
    });
    expect(await rejectionOf(run(target))).toMatchObject({ retryAfterMs: 2000, upstreamCode: 'rate_limit_exceeded' });
  });

  it('treats a 200 carrying JSON as a protocol error', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"surprise"}');
    });
    expect(await rejectionOf(run(target))).toMatchObject({ kind: 'protocol', isRetryable: false, statusCode: 200 });
  });

  it('treats an empty 200 body as a protocol error', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' }).end();
    });
    expect(await rejectionOf(run(target))).toMatchObject({ kind: 'protocol', isRetryable: false });
  });

  it('reports a refused connection as a retryable network error', async () => {
    // Take a free port, then close it so nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    adapter = createHttpSpeechAdapter(definition, { apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}`, firstByteTimeoutMs: 1000 });
    expect(await rejectionOf(run(adapter))).toMatchObject({ kind: 'network', isRetryable: true, statusCode: null });
  });

  it('prefixes the base URL path and streams the body', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      response.write(Buffer.alloc(100));
      response.end(Buffer.alloc(100));
    }, '/proxy/openai/');
    expect((await collect((await run(target)).audio)).length).toBe(200);
    expect(seenPaths).toEqual(['/proxy/openai/v1/audio/speech']);
  });

  it('refuses base URLs with credentials or queries', () => {
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'https://user:pw@example.com', firstByteTimeoutMs: 1 })).toThrow(TypeError);
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'https://example.com/?a=1', firstByteTimeoutMs: 1 })).toThrow(TypeError);
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'ftp://example.com', firstByteTimeoutMs: 1 })).toThrow(TypeError);
  });
});
