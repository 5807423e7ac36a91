import type { Duplex } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import type { Redis } from 'ioredis';
import { announceSkip, redisUrl, uniqueRedisPrefix } from '@voice-router/test-support';
import { createWorkerClient } from './redis-connection.js';

const url = redisUrl();
if (!url) announceSkip('the worker\'s Redis client', 'REDIS_URL is not set');

/** Counts what reaches the socket: one `_writev` for corked chunks, one `_write` per uncorked chunk. */
function countSocketWrites(client: Redis) {
  const stream = (client as unknown as { stream: Duplex & { _write: Duplex['_write']; _writev?: Duplex['_writev'] } }).stream;
  const counts = { write: 0, writev: 0, chunks: 0 };
  const write = stream._write;
  const writev = stream._writev!;
  stream._write = function countedWrite(this: Duplex, ...args: Parameters<Duplex['_write']>) {
    counts.write += 1;
    counts.chunks += 1;
    return write.apply(this, args);
  };
  stream._writev = function countedWritev(this: Duplex, ...args: Parameters<NonNullable<Duplex['_writev']>>) {
    counts.writev += 1;
    counts.chunks += args[0].length;
    return writev.apply(this, args);
  };
  return counts;
}

async function ready(client: Redis) {
  if (client.status !== 'ready') await new Promise<void>((resolve) => client.once('ready', () => resolve()));
  // The 'connect' listener runs on the tick after the socket connects; let it.
  await new Promise((resolve) => setImmediate(resolve));
}

describe.skipIf(!url)('the worker\'s Redis client', () => {
  let client: Redis | undefined;
  afterEach(() => client?.disconnect());

  it('sends the commands of one turn in one socket write, in order, with every reply where it belongs', async () => {
    client = createWorkerClient(url!);
    await ready(client);
    const key = `${uniqueRedisPrefix()}:coalesce`;
    const counts = countSocketWrites(client);
    const replies = Array.from({ length: 50 }, () => client!.incr(key));
    expect(await Promise.all(replies)).toEqual(Array.from({ length: 50 }, (_, index) => index + 1));
    expect(counts).toEqual({ write: 0, writev: 1, chunks: 50 });
    // Commands issued in separate turns still leave at once, each in its own write.
    expect(await client.incr(key)).toBe(51);
    expect(await client.get(key)).toBe('51');
    expect(counts.writev + counts.write).toBe(3);
    await client.del(key);
  });

  it('coalesces on the socket of a reconnection too', async () => {
    client = createWorkerClient(url!);
    await ready(client);
    client.disconnect(true);
    await new Promise<void>((resolve) => client!.once('ready', () => resolve()));
    await new Promise((resolve) => setImmediate(resolve));
    const key = `${uniqueRedisPrefix()}:reconnect`;
    const counts = countSocketWrites(client);
    expect(await Promise.all(Array.from({ length: 10 }, () => client!.incr(key)))).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    expect(counts).toEqual({ write: 0, writev: 1, chunks: 10 });
    await client.del(key);
  });
});
