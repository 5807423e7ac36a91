// What an open stream keeps of its request and of its audio. Once the upstream answers, the stream needs
// the plan (the input's text stays in it, 1 byte a character for Latin-1) but neither the request body it
// was parsed from nor the upstream request built from it. Measured per stream, with V8's own collector, as
// the difference between streams with a 4,000-character input and streams with a 10-character one. Before
// the body and the upstream request were let go of: 14.4-16.8 KB on Node 20, 17.5 on Node 24; after,
// 5.9-8.2 and 10.2-11.1.
// Audio it has written, it keeps none of while it waits for more: a chunk is a view into a whole socket
// read (up to 64 KB), and the stream's loop used to hold the last one until the next arrived.
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectGarbage } from '@voice-router/test-support';
import { createApiKey, createUser, grantCredit, openDatabase, type Database } from '@voice-router/ledger';
import { createProviderRegistry, openAIProvider } from '@voice-router/providers';
import { CHUNKED_AUDIO_HEAD, chunkedPart } from '@voice-router/providers/testing';
import { createInProcessSettler } from '@voice-router/settlement';
import { createLogger } from '@voice-router/service-kit';
import { startDataPlane } from '../data-plane.js';
import { testedServers } from '../server/tested-servers.test-support.js';

const STREAMS = 300;
const LONG_INPUT = 4_000;
/** Between the measurements above, on both Node lines: the input itself (~4 KB) and slack, not its copies. */
const MOST_KEPT_PER_STREAM = 13 * 1024;
/** A first answer this large arrives in one or a few socket reads, each held whole by a chunk that is a view into it. */
const LARGE_AUDIO = 60_000;
/** Per stream, a 60,000-byte first answer against a 1,000-byte one: 58-60 KB while the last read was held, under 1 KB since. */
const MOST_AUDIO_KEPT_PER_STREAM = 6 * 1024;

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
});
afterAll(async () => {
  await database?.close();
});

async function settleHeap(gc: () => void): Promise<number> {
  for (let round = 0; round < 4; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/**
 * An upstream that answers every request with a first chunk of audio and then holds the stream open. It
 * keeps nothing of what it reads (a test upstream that kept the request would be measured with the router).
 */
async function holdingUpstream(audioBytes: number) {
  const answer = Buffer.concat([Buffer.from(CHUNKED_AUDIO_HEAD), chunkedPart(Buffer.alloc(audioBytes, 7))]);
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    // Only the head is kept until it is whole; of the body, only its length is counted.
    let head = '';
    let seen = 0;
    let expected = -1;
    socket.on('data', (data) => {
      seen += data.length;
      if (expected < 0) {
        head += data.toString('latin1');
        const end = head.indexOf('\r\n\r\n');
        if (end < 0) return;
        expected = end + 4 + Number(/content-length: (\d+)/i.exec(head.slice(0, end))?.[1] ?? 0);
        head = '';
      }
      if (seen >= expected) {
        seen = 0;
        expected = -1;
        socket.write(answer);
      }
    });
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v1`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A speech request with `length` random letters of input, built here so that nothing of it stays in the caller. */
function speechRequest(key: string, length: number): Buffer {
  const letters = Buffer.alloc(length);
  for (let index = 0; index < length; index++) letters[index] = 97 + Math.floor(Math.random() * 26);
  const body = Buffer.concat([Buffer.from('{"model":"openai/tts-1","voice":"alloy","response_format":"mp3","input":"'), letters, Buffer.from('"}')]);
  const head = `POST /v1/audio/speech HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${key}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`;
  return Buffer.concat([Buffer.from(head), body]);
}

/** Heap and ArrayBuffer bytes per open stream whose input has `inputLength` characters and whose upstream sent `audioBytes` so far. */
async function keptPerStream(server: 'node' | 'uws', inputLength: number, audioBytes = 1_000): Promise<number> {
  const gc = collectGarbage();
  const upstream = await holdingUpstream(audioBytes);
  const registry = createProviderRegistry(
    { attemptTimeoutMs: 2_000, maxAttempts: 1, providers: { openai: { apiKey: 'sk-test', baseUrl: upstream.baseUrl } } },
    [openAIProvider],
  );
  const settler = createInProcessSettler({ sql: database.sql });
  const dataPlane = await startDataPlane({
    host: '127.0.0.1', port: 0, sql: database.sql, registry, settler, logger: createLogger({ name: 'test', level: 'silent' }),
    authCacheTtlMs: 60_000, streamMaxDurationMs: 60_000, shutdownGraceMs: 0, attemptTimeoutMs: 2_000, server,
  });
  const user = await createUser(database.prisma, { email: `memory-${server}-${Math.random()}@example.com` });
  const key = (await createApiKey(database.prisma, { accountId: user.personalAccountId, name: 'memory' })).keyValue;
  await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 1_000_000_000n, source: 'admin' });
  const clients: net.Socket[] = [];
  // Resolves once all the audio sent so far has arrived; the stream then stays open.
  const open = async () => {
    const socket = net.connect(dataPlane.port, '127.0.0.1');
    clients.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(speechRequest(key, inputLength));
    await new Promise<void>((resolve, reject) => {
      let received = 0;
      const onData = (data: Buffer) => {
        if (received === 0 && data.length >= 12 && !data.toString('latin1', 0, 12).startsWith('HTTP/1.1 200')) {
          reject(new Error(`speech refused: ${data.toString('latin1', 0, 200)}`));
          return;
        }
        received += data.length;
        if (received > audioBytes) {
          socket.off('data', onData);
          resolve();
        }
      };
      socket.on('data', onData);
    });
  };
  try {
    // Warm up (the key's cache, pools, code), then measure the streams opened in between.
    for (let index = 0; index < 20; index++) await open();
    const before = await settleHeap(gc);
    for (let opened = 0; opened < STREAMS; opened += 50) await Promise.all(Array.from({ length: 50 }, open));
    return ((await settleHeap(gc)) - before) / STREAMS;
  } finally {
    for (const socket of clients) socket.destroy();
    await dataPlane.close();
    await settler.close();
    await registry.close();
    await upstream.close();
  }
}

describe.each(testedServers())('memory of open streams (%s server)', (server) => {
  it(`keeps of a ${LONG_INPUT}-character input little more than the input itself`, { timeout: 60_000 }, async () => {
    const short = await keptPerStream(server, 10);
    const long = await keptPerStream(server, LONG_INPUT);
    expect(long - short).toBeLessThan(MOST_KEPT_PER_STREAM);
  });

  it('keeps none of the audio it has written while it waits for more', { timeout: 60_000 }, async () => {
    const small = await keptPerStream(server, 10);
    const large = await keptPerStream(server, 10, LARGE_AUDIO);
    expect(large - small).toBeLessThan(MOST_AUDIO_KEPT_PER_STREAM);
  });
});
