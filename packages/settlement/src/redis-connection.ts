// BullMQ connection settings. Consumers (workers) block on Redis and must wait as long as it takes;
// producers must fail fast, or a Redis outage silently parks settlements in memory.
import type { ConnectionOptions } from 'bullmq';
import type { Duplex } from 'node:stream';
import type { Redis } from 'ioredis';
import { loadIoredis } from './load-redis-libraries.js';

export const SETTLEMENT_QUEUE = 'settlement';

/** A producer command (enqueue, job lookup) fails after this long instead of waiting for Redis. */
export const PRODUCER_COMMAND_TIMEOUT_MS = 2_000;

function baseConnection(redisUrl: string) {
  const url = new URL(redisUrl);
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    username: url.username || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined,
    tls: url.protocol === 'rediss:' ? {} : undefined,
  };
}

/** For BullMQ workers: blocking commands must wait as long as they need. */
export function redisConnection(redisUrl: string): ConnectionOptions {
  return { ...baseConnection(redisUrl), maxRetriesPerRequest: null };
}

/**
 * For a BullMQ worker's own commands: a client as redisConnection describes, whose commands issued in
 * one turn of the event loop leave in one socket write. ioredis writes each command to the socket as
 * it is issued, one system call each; a worker finishing the jobs of a written batch issues one
 * command per job in the same turn (and Redis then reads them in one go). The socket is corked for the
 * rest of the turn on its first write and uncorked on the next tick, as Node's HTTP server does with a
 * response: the bytes and their order are unchanged, only the number of writes. BullMQ duplicates this
 * client for its blocking connection without the coalescing, which that connection does not need.
 * The caller owns the client (BullMQ does not close a client it was given). It reconnects as ioredis
 * does by default (50 ms more each attempt, at most 2 s apart), sooner than the 1-20 s of a client
 * BullMQ creates itself, so settlement resumes soon after a Redis restart.
 */
export function createWorkerClient(redisUrl: string): Redis {
  const client = new (loadIoredis().Redis)({ ...baseConnection(redisUrl), maxRetriesPerRequest: null });
  // Every (re)connection has a new socket.
  client.on('connect', () => coalesceWrites((client as unknown as { stream?: Duplex }).stream));
  // BullMQ reports the client's errors through the worker's 'error' event while it runs; this listener
  // keeps one emitted after BullMQ let go of the client (closing, or a failed start) from ending the process.
  client.on('error', () => undefined);
  return client;
}

const coalesced = new WeakSet<Duplex>();

function coalesceWrites(stream: Duplex | undefined): void {
  if (!stream || coalesced.has(stream)) return;
  coalesced.add(stream);
  const write = stream.write;
  let corked = false;
  const uncork = () => {
    corked = false;
    stream.uncork();
  };
  stream.write = function coalescedWrite(this: Duplex, ...args: Parameters<Duplex['write']>) {
    if (!corked) {
      corked = true;
      stream.cork();
      process.nextTick(uncork);
    }
    return write.apply(this, args);
  } as Duplex['write'];
}

/**
 * For producers and lookups: while Redis is unreachable every command is refused at once (no offline
 * queue, no per-command reconnect retries), and a command on a connection that hangs gives up after
 * PRODUCER_COMMAND_TIMEOUT_MS. The connection keeps reconnecting in the background. The caller owns
 * the client (BullMQ does not close a client it was given): disconnect() ends it at once, where
 * BullMQ's own close would wait for Redis to answer QUIT.
 */
export function createProducerClient(redisUrl: string): Redis {
  const client = new (loadIoredis().Redis)({
    ...baseConnection(redisUrl),
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    commandTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
    connectTimeout: PRODUCER_COMMAND_TIMEOUT_MS,
    retryStrategy: (times: number) => Math.min(100 * times, 1_000),
  });
  // Errors surface on the commands that fail; the client's own 'error' events need a listener.
  client.on('error', () => undefined);
  return client;
}

/** Rejects after `ms` if `promise` has not settled (the work itself cannot be cancelled). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
