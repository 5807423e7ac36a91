// The key cache: a key in steady use is looked up again ahead of its expiry, all such keys in one
// statement, so its requests never wait for the database; a revoked or changed key still stops being
// served within the cache lifetime counted from the lookup's send time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, createUser, openDatabase, revokeApiKey, type Database, type SqlClient } from '@voice-router/ledger';
import { createApiKeyAuthenticator, type ApiKeyAuthenticator } from './api-key-authenticator.js';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ kind: 'pglite-memory' });
});
afterAll(async () => {
  await database?.close();
});

const opened: ApiKeyAuthenticator[] = [];
afterEach(() => {
  for (const auth of opened.splice(0)) auth.close();
});

/** The database, with every statement the authenticator sends counted by its text. */
function counting(): { sql: SqlClient; single: () => number; batched: () => number; sizes: number[] } {
  let single = 0;
  let batched = 0;
  const sizes: number[] = [];
  const sql: SqlClient = {
    ...database.sql,
    background: undefined,
    query(text, values, name) {
      if (name === 'ledger_find_api_key') single += 1;
      if (name === 'ledger_find_api_keys') {
        batched += 1;
        // One array literal of hex hashes: `{"…","…"}`.
        sizes.push(String(values![0]).split(',').length);
      }
      return database.sql.query(text, values, name);
    },
  };
  return { sql, single: () => single, batched: () => batched, sizes };
}

type Key = Awaited<ReturnType<typeof createApiKey>>;

/** `count` new keys of one new account (at least two, so that destructuring needs no checks). */
async function newKeys(count: number): Promise<[Key, Key, ...Key[]]> {
  const user = await createUser(database.prisma, { email: `auth-${Date.now()}-${Math.random()}@example.com` });
  const keys = await Promise.all(Array.from({ length: count }, (_, index) => createApiKey(database.prisma, { accountId: user.personalAccountId, name: `k${index}` })));
  return keys as [Key, Key, ...Key[]];
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * The tests that count refreshes against the clock hold only while the event loop is not stalled for
 * about half a lifetime (a refresh round missed or late lets a key expire). A loaded CI host stalls a
 * process that long now and then (one run in twelve of the keep-warm test failed with four busy loops
 * beside it, at a 100 ms lifetime), so those that count refreshes use lifetimes of a few hundred
 * milliseconds, and all of them are retried twice: a real fault fails every attempt.
 */
const TIMED = { retry: 2 } as const;
const bearer = (keyValue: string) => `Bearer ${keyValue}`;

describe('the API key cache', () => {
  it('refreshes the keys in use in one statement and never makes their requests wait', { ...TIMED, timeout: 15_000 }, async () => {
    const [idle, ...keys] = await newKeys(6);
    const counted = counting();
    // Nothing is kept warm past its use here (keepWarmMs 0): only the keys in use are refreshed.
    const auth = createApiKeyAuthenticator({ sql: counted.sql, cacheTtlMs: 300, keepWarmMs: 0 });
    opened.push(auth);
    for (const key of [idle, ...keys]) expect(await auth.identify(bearer(key.keyValue))).toMatchObject({ kind: 'api_key', key: { id: key.id } });
    expect(counted.single()).toBe(6);
    // Ten lifetimes of steady use: every identify() is answered from the cache.
    const started = Date.now();
    while (Date.now() - started < 3_000) {
      for (const key of keys) {
        const answer = auth.identify(bearer(key.keyValue));
        // Answered from memory: settled before the event loop's next turn.
        const first = await Promise.race([answer.then(() => 'memory'), new Promise((resolve) => setImmediate(() => resolve('next turn')))]);
        expect(first).toBe('memory');
        expect(await answer).toMatchObject({ key: { id: key.id } });
      }
      await wait(10);
    }
    expect(counted.single()).toBe(6);
    // About one statement per half lifetime, each for the five keys in use (the idle one is not refreshed).
    expect(counted.batched()).toBeGreaterThanOrEqual(10);
    expect(counted.batched()).toBeLessThanOrEqual(25);
    expect(counted.sizes.every((size) => size === 5)).toBe(true);
    // The idle key expired: its next request looks it up.
    expect(await auth.identify(bearer(idle.keyValue))).toMatchObject({ key: { id: idle.id } });
    expect(counted.single()).toBe(7);
  });

  it('keeps a key used within keepWarmMs fresh through a pause, revocation bound unchanged', { ...TIMED, timeout: 15_000 }, async () => {
    const [paused, revoked, ...rest] = await newKeys(4);
    const counted = counting();
    const ttl = 200;
    const keepWarm = 1_500;
    const auth = createApiKeyAuthenticator({ sql: counted.sql, cacheTtlMs: ttl, keepWarmMs: keepWarm });
    opened.push(auth);
    for (const key of [paused, revoked, ...rest]) expect(await auth.identify(bearer(key.keyValue))).toBeDefined();
    expect(counted.single()).toBe(4);
    // A pause of five lifetimes: the next requests are answered from memory, without a lookup.
    await wait(5 * ttl);
    await revokeApiKey(database.prisma, { id: revoked.id });
    await wait(ttl + 60);
    expect(await auth.identify(bearer(paused.keyValue))).toMatchObject({ key: { id: paused.id } });
    expect(counted.single()).toBe(4);
    expect(counted.sizes.length).toBeGreaterThanOrEqual(4);
    expect(counted.sizes[0]).toBe(4);
    // The revoked one was refreshed as unknown within a lifetime (and, unknown, is no longer kept warm).
    expect(await auth.identify(bearer(revoked.keyValue))).toBeUndefined();
    // Past keepWarmMs without a request, a key expires like any other and is looked up on its next use.
    await wait(keepWarm + 2 * ttl);
    const refreshesBefore = counted.batched();
    await wait(1.5 * ttl);
    expect(counted.batched() - refreshesBefore).toBeLessThanOrEqual(1);
    const singlesBefore = counted.single();
    for (const key of rest) expect(await auth.identify(bearer(key.keyValue))).toBeDefined();
    expect(counted.single()).toBe(singlesBefore + rest.length);
  });

  it('looks up the keys asked for in one turn in one statement', async () => {
    const [first, second, ...rest] = await newKeys(5);
    const [revoked] = await newKeys(2);
    await revokeApiKey(database.prisma, { id: revoked.id });
    const counted = counting();
    const auth = createApiKeyAuthenticator({ sql: counted.sql, cacheTtlMs: 60_000 });
    opened.push(auth);
    const unknown = 'pk_live_' + 'x'.repeat(40);
    // Many accounts at once: five keys (one asked twice), a revoked one and an unknown one.
    const asked = [first, second, first, ...rest, revoked].map((key) => key.keyValue).concat(unknown);
    const answers = await Promise.all(asked.map((value) => auth.identify(bearer(value))));
    expect(answers.map((answer) => (answer?.kind === 'api_key' ? answer.key.id : undefined))).toEqual(
      [first, second, first, ...rest].map((key) => key.id).concat([undefined, undefined] as never[]),
    );
    expect(counted.single()).toBe(0);
    expect(counted.batched()).toBe(1);
    expect(counted.sizes).toEqual([7]);
    // All of them cached, the refused ones as refused.
    for (const value of asked) await auth.identify(bearer(value));
    expect(counted.single() + counted.batched()).toBe(1);
    // A failed statement fails the requests that waited for it, and nothing is cached.
    const failing = createApiKeyAuthenticator({
      sql: { ...database.sql, background: undefined, query: () => Promise.reject(new Error('connection lost')) },
      cacheTtlMs: 60_000,
    });
    opened.push(failing);
    const failed = await Promise.allSettled([first, second].map((key) => failing.identify(bearer(key.keyValue))));
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });

  it('stops serving a revoked key within the lifetime, and serves a changed key as changed', TIMED, async () => {
    const [revoked, changed] = await newKeys(2);
    const auth = createApiKeyAuthenticator({ sql: database.sql, cacheTtlMs: 300 });
    opened.push(auth);
    expect(await auth.identify(bearer(revoked.keyValue))).toBeDefined();
    expect(await auth.identify(bearer(changed.keyValue))).toMatchObject({ key: { maxConcurrency: null } });
    await revokeApiKey(database.prisma, { id: revoked.id });
    await database.sql.query(`UPDATE api_keys SET max_concurrency = 3 WHERE id = $1::uuid`, [changed.id]);
    const changedAt = Date.now();
    let revokedUntil = 0;
    let changedSeenAt = 0;
    // Used all along (so the refresh keeps both in the cache) until both changes show.
    while (Date.now() - changedAt < 2_000 && (!revokedUntil || !changedSeenAt)) {
      if (!revokedUntil && (await auth.identify(bearer(revoked.keyValue))) === undefined) revokedUntil = Date.now();
      if (!changedSeenAt) {
        const seen = await auth.identify(bearer(changed.keyValue));
        if (seen?.kind === 'api_key' && seen.key.maxConcurrency === 3) changedSeenAt = Date.now();
      }
      await wait(5);
    }
    expect(revokedUntil).toBeGreaterThan(0);
    expect(revokedUntil - changedAt).toBeLessThanOrEqual(300 + 50);
    expect(changedSeenAt).toBeGreaterThan(0);
    expect(changedSeenAt - changedAt).toBeLessThanOrEqual(300 + 50);
    // Once refused, it stays refused.
    await wait(400);
    expect(await auth.identify(bearer(revoked.keyValue))).toBeUndefined();
  });

  it('lets invalidate() win over a refresh in flight', TIMED, async () => {
    const [idle, busy] = await newKeys(2);
    const counted = counting();
    let release: (() => void) | undefined;
    const gated: SqlClient = {
      ...counted.sql,
      background: undefined,
      async query(text, values, name) {
        // Holds the next refresh statement until released.
        if (name === 'ledger_find_api_keys' && !release) await new Promise<void>((resolve) => (release = resolve));
        return counted.sql.query(text, values, name);
      },
    };
    const auth = createApiKeyAuthenticator({ sql: gated, cacheTtlMs: 100, keepWarmMs: 0 });
    opened.push(auth);
    await auth.identify(bearer(idle.keyValue));
    await auth.identify(bearer(busy.keyValue));
    await auth.identify(bearer(busy.keyValue));
    // The refresh takes only the key used since it was looked up, and is held at the gate.
    await expect.poll(() => release !== undefined, { timeout: 1_000 }).toBe(true);
    auth.invalidate();
    release!();
    await wait(20);
    expect(counted.sizes[0]).toBe(1);
    // Invalidated before the held answer came: the next request looks the key up again.
    const singleBefore = counted.single();
    await auth.identify(bearer(busy.keyValue));
    expect(counted.single()).toBe(singleBefore + 1);
  });

  it('caches nothing with a lifetime of 0', async () => {
    const [key] = await newKeys(2);
    const counted = counting();
    const auth = createApiKeyAuthenticator({ sql: counted.sql, cacheTtlMs: 0 });
    opened.push(auth);
    for (let index = 0; index < 3; index += 1) expect(await auth.identify(bearer(key.keyValue))).toBeDefined();
    expect(counted.single()).toBe(3);
    expect(counted.batched()).toBe(0);
  });
});
