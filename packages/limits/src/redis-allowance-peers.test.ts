// The channel between data planes, on real Redis: an ask reaches every data plane (the asker too),
// only on its own deployment's channel, and nothing but an account id is acted on.
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { announceSkip, redisUrl, uniqueRedisPrefix } from '@voice-router/test-support';
import { createRedisAllowancePeers, type AllowancePeerChannel } from './redis-allowance-peers.js';

const url = redisUrl();
if (!url) announceSkip('Redis allowance peers suite', 'REDIS_URL is not set');

describe.runIf(Boolean(url))('Redis allowance peers', () => {
  const opened: AllowancePeerChannel[] = [];
  afterAll(async () => {
    await Promise.all(opened.map((channel) => channel.close()));
  });

  async function dataPlane(prefix: string) {
    const heard: string[] = [];
    const channel = await createRedisAllowancePeers({ redisUrl: url!, prefix, onError: (error) => { throw error; } });
    channel.onAsk((accountId) => heard.push(accountId));
    opened.push(channel);
    return { channel, heard };
  }

  const until = async (check: () => boolean) => {
    for (let tries = 0; tries < 200 && !check(); tries += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  };

  it('an ask reaches every data plane of the deployment, the asker too, and no other deployment', async () => {
    const prefix = uniqueRedisPrefix();
    const [first, second, elsewhere] = [await dataPlane(prefix), await dataPlane(prefix), await dataPlane(uniqueRedisPrefix())];
    const accountId = crypto.randomUUID();
    first.channel.ask(accountId.toUpperCase());
    await until(() => first.heard.length > 0 && second.heard.length > 0);
    expect(first.heard).toEqual([accountId]);
    expect(second.heard).toEqual([accountId]);
    // Stray messages on the channel are ignored; the next real ask still arrives, and nothing reached the other deployment.
    const stray = new Redis(url!);
    await stray.publish(`${prefix}:allowances:return`, 'not an account id');
    await stray.publish(`${prefix}:allowances:return`, `${accountId} ; DROP`);
    stray.disconnect();
    const next = crypto.randomUUID();
    second.channel.ask(next);
    await until(() => first.heard.length > 1);
    expect(first.heard).toEqual([accountId, next]);
    expect(elsewhere.heard).toEqual([]);
  });
});
