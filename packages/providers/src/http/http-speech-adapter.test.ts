// Transport edge cases the provider fakes do not model, served by a tiny purpose-built server.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isCollected } from '@voice-router/test-support';
import { ProviderError, UpstreamInvalidRequestError } from '../errors.js';
import { openAIDescriptor } from '../openai/openai-catalog.js';
import { classifyOpenAIError } from '../openai/openai-error.js';
import { buildOpenAISpeechRequest } from '../openai/openai-speech-model.js';
import type { SpeechAdapter, SpeechInput } from '../types.js';
import { collect, openAIInput, rejectionOf } from '../__fixtures__/speech-helpers.js';
import { createHttpSpeechAdapter, type HttpProviderDefinition } from './http-speech-adapter.js';

const definition: HttpProviderDefinition = {
  id: 'openai',
  defaultBaseUrl: 'https://api.openai.com/v1',
  descriptor: openAIDescriptor,
  buildRequest: buildOpenAISpeechRequest,
  classifyError: classifyOpenAIError,
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
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, category: 'upstream_server_error' });
    expect(error.message).not.toContain('aaaa');
    expect(JSON.stringify({ ...error, message: error.message })).not.toContain('req_123');
    expect(bytesWritten).toBeLessThan(16 * 1024 * 1024);
  });

  it.each([
    [{ 'retry-after': '2' }, 2000],
    [{ 'retry-after-ms': '350', 'retry-after': '9' }, 350],
    [{ 'retry-after': new Date(Date.now() + 60_000).toUTCString() }, 60_000],
    [{ 'retry-after': 'soon, maybe' }, undefined],
  ])('reports Retry-After %j as a number of milliseconds (~%s)', async (headers, expected) => {
    const target = await serve((_request, response) => {
      response.writeHead(429, { ...headers, 'content-type': 'application/json' }).end('{"error":{"code":"rate_limit_exceeded"}}');
    });
    const error = (await rejectionOf(run(target))) as ProviderError;
    expect(error).toMatchObject({ category: 'upstream_rate_limited', isRetryable: true });
    if (expected === undefined) expect(error.retryAfterMs).toBeUndefined();
    else expect(Math.abs(error.retryAfterMs! - expected)).toBeLessThan(2000);
  });

  it('turns a refusal of a client-chosen field into an UpstreamInvalidRequestError naming only that field', async () => {
    const target = await serve((_request, response) => {
      response
        .writeHead(400, { 'content-type': 'application/json', 'x-request-id': 'req_SECRET' })
        .end('{"error":{"message":"voice SECRET is not allowed","type":"invalid_request_error","param":"voice","code":"SECRET_CODE"}}');
    });
    const error = (await rejectionOf(run(target))) as UpstreamInvalidRequestError;
    expect(error).toBeInstanceOf(UpstreamInvalidRequestError);
    expect(error).toMatchObject({ provider: 'openai', statusCode: 400, field: 'voice', details: 'openai refused the value of voice' });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toContain('SECRET');
  });

  it('treats a 200 carrying JSON as a protocol error', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"error":"surprise"}');
    });
    const error = (await rejectionOf(run(target))) as ProviderError;
    expect(error).toMatchObject({ kind: 'protocol', category: 'upstream_bad_response', isRetryable: false, statusCode: 200 });
    expect(error.message).not.toContain('surprise');
  });

  it('treats an empty 200 body as a protocol error', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' }).end();
    });
    expect(await rejectionOf(run(target))).toMatchObject({ kind: 'protocol', category: 'upstream_bad_response', isRetryable: false });
  });

  it('reports a refused connection as a retryable network error', async () => {
    // Take a free port, then close it so nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    adapter = createHttpSpeechAdapter(definition, { apiKey: 'sk-test', baseUrl: `http://127.0.0.1:${port}`, firstByteTimeoutMs: 1000 });
    expect(await rejectionOf(run(adapter))).toMatchObject({ kind: 'network', category: 'upstream_network_error', isRetryable: true, statusCode: null });
  });

  it.each([
    ['/v1', '/v1/audio/speech'],
    ['/v1/', '/v1/audio/speech'],
    ['/proxy/openai/v1/', '/proxy/openai/v1/audio/speech'],
  ])('follows the SDK convention: base path %j sends to %j (never a doubled /v1)', async (basePath, expected) => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      response.write(Buffer.alloc(100));
      response.end(Buffer.alloc(100));
    }, basePath);
    expect((await collect((await run(target)).audio)).length).toBe(200);
    expect(seenPaths).toEqual([expected]);
  });

  it('keeps neither the input nor the request built from it once the audio flows, while the stream stays open', async () => {
    const target = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'audio/pcm' });
      response.write(Buffer.alloc(4_096, 1)); // and no end: the stream stays open
    });
    let input: SpeechInput | undefined = openAIInput({ text: 'x'.repeat(4_000) });
    const kept = new WeakRef(input);
    const result = await target.synthesize(input, { signal: new AbortController().signal });
    input = undefined;
    const audio = result.audio[Symbol.asyncIterator]();
    expect((await audio.next()).value?.byteLength).toBe(4_096);
    // As the data plane does once a chunk is written: ask for the next one, which is not there yet.
    void audio.next();
    expect(await isCollected(kept)).toBe(true);
    await audio.return?.();
  });

  it('refuses base URLs with credentials or queries', () => {
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'https://user:pw@example.com', firstByteTimeoutMs: 1 })).toThrow(TypeError);
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'https://example.com/?a=1', firstByteTimeoutMs: 1 })).toThrow(TypeError);
    expect(() => createHttpSpeechAdapter(definition, { apiKey: 'k', baseUrl: 'ftp://example.com', firstByteTimeoutMs: 1 })).toThrow(TypeError);
  });
});
