// The data planes of one deployment, reached through Redis publish/subscribe: a data plane refused a
// request of an account asks every data plane (itself included) to return what its allowances of that
// account hold unspent (packages/ledger/src/allowance-keeper.ts). A message is only a hint: the money
// moves in the database, and the asker tries again as it arrives, so a lost message costs a 402 that a
// single data plane would have given too, never money.

import { loadIoredis } from './load-ioredis.js';

export interface AllowancePeerChannel {
  /** Asks every data plane to return what it holds of the account (fire and forget). */
  ask(accountId: string): void;
  /** Called with each account asked about, by any data plane. */
  onAsk(handler: (accountId: string) => void): void;
  close(): Promise<void>;
}

export interface RedisAllowancePeersOptions {
  redisUrl: string;
  /** The channel is `${prefix}:allowances:return`. */
  prefix: string;
  /** Told about connection and publish errors (requests are refused as without peers meanwhile). */
  onError?: (error: unknown) => void;
}

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function createRedisAllowancePeers(options: RedisAllowancePeersOptions): Promise<AllowancePeerChannel> {
  const report = options.onError ?? (() => undefined);
  const channel = `${options.prefix}:allowances:return`;
  const { Redis } = loadIoredis();
  // A subscribed connection can do nothing else: one to publish, one to listen.
  const publisher = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, commandTimeout: 1_000 });
  const subscriber = new Redis(options.redisUrl, { lazyConnect: true });
  publisher.on('error', report);
  subscriber.on('error', report);
  const handlers: Array<(accountId: string) => void> = [];
  subscriber.on('message', (from: string, message: string) => {
    // Anything else on the channel (another version, a stray publish) is not ours to act on.
    if (from !== channel || !ACCOUNT_ID.test(message)) return;
    for (const handler of handlers) {
      try {
        handler(message.toLowerCase());
      } catch (error) {
        report(error);
      }
    }
  });
  try {
    await publisher.connect();
    await subscriber.connect();
    await subscriber.subscribe(channel);
  } catch (error) {
    publisher.disconnect();
    subscriber.disconnect();
    throw error;
  }
  return {
    ask(accountId) {
      publisher.publish(channel, accountId).catch(report);
    },
    onAsk(handler) {
      handlers.push(handler);
    },
    async close() {
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
