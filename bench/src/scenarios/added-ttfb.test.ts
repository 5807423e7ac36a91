// Scenario 1 against two small servers: one always quick, one that, like the router's allowances, is
// slow for its first requests after a quiet spell. Each round's opening slice must take that cold
// start and keep it out of the round's figures.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SystemName, Target } from '../load/targets.js';
import { runAddedTtfb } from './added-ttfb.js';

/** Every answer takes this long (a few dozen samples a slice, so that p99 is about the slowest of them). */
const ANSWER_MS = 10;
const COLD_DELAY_MS = 150;
/** The cold server counts as idle after this long without a request; a round of the other system lasts longer. */
const IDLE_MS = 400;
/** Requests answered slowly after each quiet spell: one per client, all within the opening slice. */
const COLD_REQUESTS = 2;

async function listen(coldAfterIdle: boolean): Promise<{ server: http.Server; baseUrl: string; coldAnswers: () => number }> {
  let lastAt = 0;
  let coldLeft = 0;
  let coldAnswers = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    const now = performance.now();
    if (coldAfterIdle && now - lastAt > IDLE_MS) coldLeft = COLD_REQUESTS;
    lastAt = now;
    const answer = () => {
      response.writeHead(200, { 'content-type': 'audio/mpeg' });
      response.end(Buffer.alloc(1024, 1));
    };
    if (coldLeft > 0) {
      coldLeft -= 1;
      coldAnswers += 1;
      setTimeout(answer, COLD_DELAY_MS);
    } else setTimeout(answer, ANSWER_MS);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, coldAnswers: () => coldAnswers };
}

const target = (system: SystemName, baseUrl: string): Target => ({
  system, baseUrl, pids: () => [process.pid], cpuGroups: () => ({}),
  speech: () => ({ method: 'POST', path: '/v1/audio/speech', headers: { 'content-type': 'application/json' }, body: '{}' }),
});

describe('scenario 1: time to first byte in rounds', () => {
  let quick: Awaited<ReturnType<typeof listen>>;
  let cold: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    quick = await listen(false);
    cold = await listen(true);
  });
  afterAll(async () => {
    await Promise.all([quick, cold].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  it("keeps each round's opening slice, after the pause between rounds, apart from the round's figures", async () => {
    const level = { concurrency: 2, size: 'short' as const, seconds: 0.4, rounds: 3 };
    const { rows, openingSeconds } = await runAddedTtfb(
      [target('bare-proxy', quick.baseUrl), target('router-scaled', cold.baseUrl)], [level],
      { warmupSeconds: 0.2, roundWarmupSeconds: 0.3 }, () => undefined,
    );
    expect(openingSeconds).toBe(0.3);
    // The warm-up at the start, and every round that came after the other system's (two of the three:
    // the rotation puts one right after its own previous round), began after a quiet spell.
    expect(cold.coldAnswers()).toBeGreaterThanOrEqual(COLD_REQUESTS * 2);
    const router = rows.find((row) => row.system === 'router-scaled')!;
    const bare = rows.find((row) => row.system === 'bare-proxy')!;
    // Every cold answer fell in an opening slice: the rounds' own figures never waited for one.
    expect(router.p99).toBeLessThan(COLD_DELAY_MS);
    expect(router.afterPause!.n).toBeGreaterThan(COLD_REQUESTS * level.rounds);
    expect(router.afterPause!.p99).toBeGreaterThanOrEqual(COLD_DELAY_MS);
    expect(bare.afterPause!.p99).toBeLessThan(COLD_DELAY_MS);
    expect(router.errors + bare.errors).toBe(0);
  });

  it('has no opening slice to report when rounds start without one', async () => {
    const { rows, openingSeconds } = await runAddedTtfb(
      [target('bare-proxy', quick.baseUrl)], [{ concurrency: 1, size: 'short', seconds: 0.2, rounds: 1 }],
      { warmupSeconds: 0, roundWarmupSeconds: 0 }, () => undefined,
    );
    expect(openingSeconds).toBeUndefined();
    expect(rows[0]!.n).toBeGreaterThan(0);
    expect(rows[0]!.afterPause).toBeUndefined();
  });
});
