// The speech route's writes: when the upstream's answer has ended by the time its last chunk is read
// (short answers, whose last bytes and end arrive together), that chunk and the end of the response
// leave in one write; otherwise the end follows once the upstream ends. Either way the client gets the
// whole audio in a well-formed chunked response and the request is charged once. The upstream is raw TCP,
// so the test decides which bytes share a socket write.
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createUser, getCredits, grantCredit, openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry, openAIProvider } from '@voice-router/providers';
import { CHUNKED_AUDIO_HEAD as HEAD, CHUNKED_END as END, chunkedPart as chunked, startRawUpstream } from '@voice-router/providers/testing';
import { createInProcessSettler, type SettlementJob, type Settler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane } from '../data-plane.js';
import { testedServers } from '../server/tested-servers.test-support.js';

const AUDIO = Buffer.alloc(4000, 7);

/**
 * Counts the writes the data plane's node:http server makes to each client socket, by the socket's two
 * ports: the client's port alone is not enough, since Linux may give the data plane's own connection to
 * the upstream the same ephemeral port (another destination), and the upstream's writes would count too.
 */
function countServerWrites(serverPort: number) {
  const counts = new Map<number, number>();
  const prototype = net.Socket.prototype as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
  const original = { _write: prototype._write, _writev: prototype._writev };
  for (const name of ['_write', '_writev'] as const) {
    prototype[name] = function (this: net.Socket, ...args: unknown[]) {
      if (this.localPort === serverPort && this.remotePort !== undefined) counts.set(this.remotePort, (counts.get(this.remotePort) ?? 0) + 1);
      return original[name].apply(this, args);
    };
  }
  return { writesTo: (clientPort: number) => counts.get(clientPort) ?? 0, restore: () => Object.assign(prototype, original) };
}

/** One request over a raw socket: the response bytes as received, and the client's local port. */
async function rawSpeech(port: number, key: string): Promise<{ response: string; localPort: number }> {
  const body = JSON.stringify({ model: 'openai/tts-1', voice: 'alloy', input: 'Hello there', response_format: 'mp3' });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve) => socket.once('connect', resolve));
  const localPort = socket.localPort!;
  socket.write(`POST /v1/audio/speech HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`);
  let response = '';
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (data) => {
      response += data.toString('latin1');
      if (response.endsWith('\r\n0\r\n\r\n')) resolve();
      // An error answer has a length instead.
      const headEnd = response.indexOf('\r\n\r\n');
      const length = /^content-length: (\d+)$/im.exec(response.slice(0, headEnd));
      if (headEnd >= 0 && length && response.length - headEnd - 4 >= Number(length[1])) resolve();
    });
    socket.on('error', reject);
    setTimeout(() => reject(new Error(`no complete response: ${response.slice(0, 200)}`)), 5000);
  });
  socket.destroy();
  return { response, localPort };
}

/** The chunked body of a raw response, decoded. */
function dechunk(response: string): Buffer {
  let rest = response.slice(response.indexOf('\r\n\r\n') + 4);
  const parts: Buffer[] = [];
  for (;;) {
    const lineEnd = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, lineEnd), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(Buffer.from(rest.slice(lineEnd + 2, lineEnd + 2 + size), 'latin1'));
    rest = rest.slice(lineEnd + 2 + size + 2);
  }
}

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
});
afterAll(async () => {
  await database?.close();
});
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(server: 'node' | 'uws', parts: Buffer[]) {
  const upstream = await startRawUpstream(() => parts, 30);
  cleanups.push(upstream.close);
  const registry = createProviderRegistry(
    { attemptTimeoutMs: 2000, maxAttempts: 1, providers: { openai: { apiKey: 'sk-test', baseUrl: upstream.baseUrl } } },
    [openAIProvider],
  );
  cleanups.push(() => registry.close());
  const inProcess = createInProcessSettler({ sql: database.sql });
  // What the route hands the settler: each job names the reservation's account (the worker partitions by it).
  const jobs: SettlementJob[] = [];
  const settler: Settler = { ...inProcess, settle: (job) => {
    jobs.push({ ...job });
    inProcess.settle(job);
  } };
  const dataPlane = await startDataPlane({
    host: '127.0.0.1', port: 0, sql: database.sql, registry, settler,
    logger: createLogger({ name: 'test', level: 'silent' }),
    authCacheTtlMs: 0, streamMaxDurationMs: 10_000, shutdownGraceMs: 0, attemptTimeoutMs: 2000, server,
  });
  cleanups.push(() => dataPlane.close(), () => settler.close());
  const user = await createUser(database.prisma, { email: `route-${server}-${Math.random()}@example.com` });
  const key = await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'test' });
  await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 1_000_000n, source: 'admin' });
  return { port: dataPlane.port, key: key.keyValue, accountId: user.personalAccountId, settler, jobs };
}

describe.each(testedServers())('speech route writes (%s server)', (server) => {
  const cases = [
    ['an answer that ends with its last chunk', [Buffer.concat([Buffer.from(HEAD), chunked(AUDIO), END])], 1],
    ['an answer whose end comes later', [Buffer.concat([Buffer.from(HEAD), chunked(AUDIO)]), END], 2],
  ] as const;
  it.each(cases)('%s: the whole audio once, charged once', async (_name, parts, nodeWrites) => {
    const { port, key, accountId, settler, jobs } = await start(server, [...parts]);
    const writes = server === 'node' ? countServerWrites(port) : undefined;
    let exchange: Awaited<ReturnType<typeof rawSpeech>>;
    try {
      exchange = await rawSpeech(port, key);
    } finally {
      writes?.restore();
    }
    expect(exchange.response.startsWith('HTTP/1.1 200 OK\r\n')).toBe(true);
    expect(dechunk(exchange.response).equals(AUDIO)).toBe(true);
    // Headers, audio and the end of the response: one write when the upstream had ended, else two.
    if (writes) expect(writes.writesTo(exchange.localPort)).toBe(nodeWrites);
    await settler.close();
    expect(jobs).toEqual([expect.objectContaining({ action: 'commit', reservationId: expect.any(String), accountId })]);
    const cost = BigInt(/x-router-cost-micros: (\d+)/i.exec(exchange.response)![1]!);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000_000n - cost, reservedMicros: 0n });
  });

  it('an upstream error: voided, the void naming the account, nothing charged', async () => {
    const failure = 'HTTP/1.1 500 Internal Server Error\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}';
    const { port, key, accountId, settler, jobs } = await start(server, [Buffer.from(failure)]);
    const exchange = await rawSpeech(port, key);
    expect(exchange.response.startsWith('HTTP/1.1 502 ')).toBe(true);
    await settler.close();
    expect(jobs).toEqual([expect.objectContaining({ action: 'void', reservationId: expect.any(String), accountId })]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000_000n, reservedMicros: 0n });
  });
});
