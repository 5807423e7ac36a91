// Accounts, device-code login, API keys and usage over HTTP in both run modes, including a tenant
// isolation matrix: two users in two organizations try every endpoint on each other's things.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, decide, rawGet, person, poll, signUp, startDeviceLogin, type Person } from './accounts-support.js';
import { settled, speech } from './e2e-support.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('accounts suites in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(modes)('accounts, keys and usage (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;
  let alice: Person;
  let bob: Person;

  beforeAll(async () => {
    fake = await startFakeProviders();
    system = await startSystem({ mode, environment: { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai') } });
    [alice, bob] = await Promise.all([person(system.baseUrl, 'alice@example.com'), person(system.baseUrl, 'bob@example.com')]);
  });
  afterAll(async () => {
    await system?.close();
    await fake?.close();
  });

  it('runs the device flow with RFC 8628 answers', async () => {
    const login = await startDeviceLogin(system.baseUrl);
    expect(login).toMatchObject({ expires_in: 600, interval: 5 });
    expect(login.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(login.verification_uri).toBe(`${system.baseUrl}/console/device`);
    expect(login.verification_uri_complete).toBe(`${system.baseUrl}/console/device?user_code=${login.user_code}`);
    expect((await poll(system.baseUrl, login.device_code)).body).toMatchObject({ error: 'authorization_pending' });
    expect((await poll(system.baseUrl, login.device_code)).body).toMatchObject({ error: 'slow_down' });
    expect(await poll(system.baseUrl, 'vr_device_unknown')).toMatchObject({ status: 404, body: { error: 'invalid_device_code' } });
    const malformed = await api(system.baseUrl, '/v1/auth/poll', undefined, { method: 'POST', body: '{"device_code":' });
    expect(malformed).toMatchObject({ status: 400, body: { error: 'invalid_body' } });

    await decide(alice, login.verification_uri_complete, 'Approve');
    await wait(4_100);
    const approved = await poll(system.baseUrl, login.device_code);
    expect(approved.status).toBe(200);
    expect(approved.body.session_token).toMatch(/^vr_session_/);
    expect(approved.body.user_id).toBe(alice.userId);
    expect(new Date(approved.body.expires_at).getTime() - Date.now()).toBeGreaterThan(89 * 24 * 3600 * 1000);
    await wait(4_100);
    expect(await poll(system.baseUrl, login.device_code)).toMatchObject({ status: 410, body: { error: 'expired_token' } });

    const whoami = await api(system.baseUrl, '/v1/auth/whoami', approved.body.session_token);
    expect(whoami.body).toMatchObject({ user_id: alice.userId, auth: 'session', email: 'alice@example.com', accounts: [{ kind: 'personal', role: 'owner' }] });
    expect(await api(system.baseUrl, '/v1/auth/logout', approved.body.session_token, { method: 'POST' })).toMatchObject({ status: 200, body: { revoked: true } });
    expect((await api(system.baseUrl, '/v1/auth/whoami', approved.body.session_token)).status).toBe(401);
    expect((await api(system.baseUrl, '/v1/auth/logout', approved.body.session_token, { method: 'POST' })).body).toEqual({ revoked: false });
    expect((await api(system.baseUrl, '/v1/auth/logout', 'vr_session_nonsense', { method: 'POST' })).body).toEqual({ revoked: false });

    const denied = await startDeviceLogin(system.baseUrl);
    await decide(bob, denied.verification_uri_complete, 'Deny');
    expect(await poll(system.baseUrl, denied.device_code)).toMatchObject({ status: 403, body: { error: 'access_denied' } });
  });

  it('serves each API path only as written, on both planes: another case, a trailing slash or a fragment is 404 not_found', async () => {
    for (const path of ['/v1/keys', '/v1/auth/whoami', '/v1/auth/sessions', '/v1/usage', '/v1/credits', '/v1/credits/activity', '/v1/voices', '/v1/providers', '/v1/status']) {
      expect((await api(system.baseUrl, path, alice.token)).status, path).toBe(200);
      for (const variant of [path.replace('/v1/', '/V1/'), `${path}/`]) {
        expect(await api(system.baseUrl, variant, alice.token), variant).toEqual({ status: 404, body: { error: 'not_found', details: 'no such endpoint' } });
      }
      // A fragment is never part of a request target; a path carrying one is no path either plane serves.
      expect((await rawGet(system.baseUrl, `${path}?a=1#x`, alice.token)).status, `${path}?a=1#x`).toBe(200);
      for (const variant of [`${path}#fragment`, `${path}#x?a=1`]) {
        expect(await rawGet(system.baseUrl, variant, alice.token), variant).toEqual({ status: 404, body: { error: 'not_found', details: 'no such endpoint' } });
      }
    }
  });

  it('mints, lists and revokes keys; the revoked key stops working at once and on every replica within a second', async () => {
    const created = await api(system.baseUrl, '/v1/keys', alice.token, { method: 'POST', body: JSON.stringify({ name: 'laptop', maxConcurrency: 4, dailySpendCapMicros: 5_000_000 }) });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'laptop', maxConcurrency: 4, dailySpendCapMicros: 5_000_000, createdBy: 'alice@example.com' });
    const keyValue: string = created.body.keyValue;
    expect(keyValue).toMatch(/^pk_/);
    expect(created.body.keySuffix).toBe(keyValue.slice(-4));
    const listed = await api(system.baseUrl, '/v1/keys', alice.token);
    expect(listed.body.keys.map((key: { id: string }) => key.id)).toContain(created.body.id);
    expect(JSON.stringify(listed.body)).not.toContain(keyValue);

    expect(await api(system.baseUrl, '/v1/keys', keyValue)).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    expect(await api(system.baseUrl, '/v1/keys', keyValue, { method: 'POST', body: '{"name":"x"}' })).toMatchObject({ status: 403, body: { error: 'scope_required' } });
    expect((await api(system.baseUrl, '/v1/keys')).status).toBe(401);
    expect(await api(system.baseUrl, '/v1/keys', alice.token, { method: 'POST', body: '{"name":""}' })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    expect(await api(system.baseUrl, '/v1/keys', alice.token, { method: 'POST', body: '{"name":' })).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    const sessionSpeech = await speech(system.baseUrl, alice.token, { model: 'local/espeak-ng', voice: 'en-us', input: 'hi' });
    expect(sessionSpeech.status).toBe(403);
    expect(await sessionSpeech.json()).toMatchObject({ error: 'scope_required' });
    expect(await api(system.baseUrl, '/v1/auth/whoami', keyValue)).toMatchObject({ body: { auth: 'api_key' } });
    expect(await api(system.baseUrl, '/v1/auth/logout', keyValue, { method: 'POST' })).toMatchObject({ status: 200, body: { revoked: false } });
    expect((await api(system.baseUrl, '/v1/credits', keyValue)).status).toBe(200);

    // Warm every replica's cache with the key, then revoke it.
    for (const baseUrl of system.baseUrls) expect((await api(baseUrl, '/v1/credits', keyValue)).status).toBe(200);
    expect(await api(system.baseUrl, `/v1/keys/${created.body.id}`, bob.token, { method: 'DELETE' })).toMatchObject({ status: 404 });
    expect(await api(system.baseUrl, `/v1/keys/${created.body.id}`, alice.token, { method: 'DELETE' })).toMatchObject({ status: 200, body: { deleted: true } });
    const revokedAt = Date.now();
    if (mode === 'embedded') {
      expect((await api(system.baseUrl, '/v1/credits', keyValue)).status).toBe(401);
    } else {
      for (const baseUrl of system.baseUrls) {
        let status = 200;
        while (status === 200 && Date.now() - revokedAt < 5_000) {
          status = (await api(baseUrl, '/v1/credits', keyValue)).status;
          if (status === 200) await wait(25);
        }
        expect(status).toBe(401);
      }
      expect(Date.now() - revokedAt).toBeLessThan(1_000);
    }
    expect(await api(system.baseUrl, `/v1/keys/${created.body.id}`, alice.token, { method: 'DELETE' })).toMatchObject({ status: 404 });
  });

  it('reports usage from commits and voids, and validates its parameters', async () => {
    const carol = await person(system.baseUrl, 'carol@example.com');
    await system.admin('grant', '--email', 'carol@example.com', '--usd', '1');
    const key = (await api(system.baseUrl, '/v1/keys', carol.token, { method: 'POST', body: '{"name":"usage"}' })).body.keyValue as string;
    for (let index = 0; index < 3; index += 1) {
      const response = await speech(system.baseUrl, key, { model: 'openai/tts-1', voice: 'alloy', input: 'usage test' });
      await response.arrayBuffer();
    }
    fake.setBehavior({ status: 500 });
    await (await speech(system.baseUrl, key, { model: 'openai/tts-1', voice: 'alloy', input: 'usage test' })).arrayBuffer();
    fake.setBehavior('normal');
    await settled(system.baseUrl, key);
    const usage = await api(system.baseUrl, '/v1/usage?days=1&limit=1000', carol.token);
    expect(usage.status).toBe(200);
    expect(usage.body.totals).toEqual({ requests: 4, costMicros: 3 * 10 * 15, errorCount: 1 });
    expect(usage.body.byProvider).toEqual([{ provider: 'openai', requests: 4, costMicros: 450 }]);
    expect(usage.body.byErrorCode).toEqual([{ code: 'upstream_error', count: 1 }]);
    expect(usage.body.recent).toHaveLength(4);
    expect(usage.body.byDay[0]).toMatchObject({ provider: 'openai', costMicros: 450, requests: 4 });
    expect((await api(system.baseUrl, '/v1/usage?limit=2', carol.token)).body.recent).toHaveLength(2);
    for (const query of ['days=0', 'days=366', 'limit=0', 'limit=1001', 'days=x']) {
      expect(await api(system.baseUrl, `/v1/usage?${query}`, carol.token)).toMatchObject({ status: 400, body: { error: 'invalid_body' } });
    }
    expect(await api(system.baseUrl, '/v1/usage', key)).toMatchObject({ status: 403, body: { error: 'scope_required' } });
  });

  it('invites a member through the console with a link, and the member then acts for the organization', async () => {
    await alice.console.submit('/console/organizations', /\/console\/organizations$/, { name: 'Acme' });
    const accounts = (await api(system.baseUrl, '/v1/auth/whoami', alice.token)).body.accounts as Array<{ accountId: string; name: string; role: string }>;
    const acme = accounts.find((account) => account.name === 'Acme')!;
    expect(acme).toMatchObject({ role: 'owner' });
    const switched = await alice.console.submit('/console/organizations', /\/console\/accounts\/switch/, { account_id: acme.accountId }, 'Switch');
    expect(switched.status).toBeLessThan(400);
    const invited = await alice.console.submit('/console/organizations', /\/console\/organizations\/invitations/, { email: 'erin@example.com' });
    let html = invited.html;
    if (invited.location) html = (await alice.console.get(invited.location)).html;
    const link = /(http[^"<\s]*\/console\/invitations\/vr_invite_[A-Za-z0-9_-]+)/.exec(html)?.[1];
    expect(link, html.slice(0, 2000)).toBeDefined();
    const invitationPath = new URL(link!).pathname;

    // Someone else cannot use Erin's invitation.
    const accepted = await bob.console.submit(invitationPath, /\/console\/invitations\//, {}, 'Accept invitation');
    expect(accepted.status).toBeGreaterThanOrEqual(400);
    const erin = await person(system.baseUrl, 'erin@example.com');
    const erinAccepts = await erin.console.submit(invitationPath, /\/console\/invitations\//, {}, 'Accept invitation');
    expect(erinAccepts.status).toBeLessThan(400);
    const erinAccounts = (await api(system.baseUrl, '/v1/auth/whoami', erin.token)).body.accounts;
    expect(erinAccounts).toEqual(expect.arrayContaining([expect.objectContaining({ accountId: acme.accountId, role: 'member' })]));
    // With one organization it is Erin's default account: she sees Acme's keys, not her personal ones.
    const key = await api(system.baseUrl, '/v1/keys', alice.token, { method: 'POST', body: '{"name":"acme-key"}', organization: acme.accountId });
    const erinKeys = await api(system.baseUrl, '/v1/keys', erin.token);
    expect(erinKeys.body.keys.map((listed: { id: string }) => listed.id)).toContain(key.body.id);
    const again = await erin.console.submit(invitationPath, /\/console\/invitations\//, {}, 'Accept invitation');
    expect(again.status).toBeGreaterThanOrEqual(400);
  });

  it('keeps tenants apart: nothing of one organization reaches a member of another', async () => {
    const orgX = (await system.admin('create-org', '--name', 'X', '--owner', 'alice@example.com')).accountId as string;
    const orgY = (await system.admin('create-org', '--name', 'Y', '--owner', 'bob@example.com')).accountId as string;
    await system.admin('grant', '--email', 'alice@example.com', '--org', orgX, '--usd', '2');
    const aliceKey = await api(system.baseUrl, '/v1/keys', alice.token, { method: 'POST', body: '{"name":"x-key"}', organization: orgX });
    const bobKey = await api(system.baseUrl, '/v1/keys', bob.token, { method: 'POST', body: '{"name":"y-key"}', organization: orgY });
    expect(aliceKey.status).toBe(200);
    expect(bobKey.status).toBe(200);

    for (const path of ['/v1/keys', '/v1/usage', '/v1/credits', '/v1/credits/activity']) {
      expect(await api(system.baseUrl, path, bob.token, { organization: orgX }), `${path} as bob in X`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect(await api(system.baseUrl, path, alice.token, { organization: orgY }), `${path} as alice in Y`).toMatchObject({ status: 403, body: { error: 'forbidden' } });
      expect((await api(system.baseUrl, path, alice.token, { organization: orgX })).status, `${path} as alice in X`).toBe(200);
    }
    expect(await api(system.baseUrl, '/v1/keys', bob.token, { method: 'POST', body: '{"name":"sneaky"}', organization: orgX })).toMatchObject({ status: 403 });
    expect(await api(system.baseUrl, `/v1/keys/${aliceKey.body.id}`, bob.token, { method: 'DELETE' })).toMatchObject({ status: 404 });
    // Bob's own listings never show X's keys, wallet or activity.
    const bobKeys = await api(system.baseUrl, '/v1/keys', bob.token, { organization: orgY });
    expect(bobKeys.body.keys.map((key: { id: string }) => key.id)).toEqual([bobKey.body.id]);
    expect((await api(system.baseUrl, '/v1/credits', bobKey.body.keyValue)).body).toEqual({ balanceMicros: 0, reservedMicros: 0 });
    expect((await api(system.baseUrl, '/v1/credits', aliceKey.body.keyValue)).body).toEqual({ balanceMicros: 2_000_000, reservedMicros: 0 });
    expect((await api(system.baseUrl, '/v1/credits/activity', bobKey.body.keyValue)).body.rows).toEqual([]);

    // A member of X sees all of X's keys but may revoke only the ones they minted (an owner's: 403).
    await system.admin('add-member', '--org', orgX, '--email', 'bob@example.com');
    expect(await api(system.baseUrl, '/v1/keys', bob.token)).toMatchObject({ status: 403, body: { error: 'organization_required' } });
    const asMember = await api(system.baseUrl, '/v1/keys', bob.token, { organization: orgX });
    expect(asMember.body.keys.map((key: { id: string }) => key.id)).toContain(aliceKey.body.id);
    expect(await api(system.baseUrl, `/v1/keys/${aliceKey.body.id}`, bob.token, { method: 'DELETE' })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await api(system.baseUrl, '/v1/keys', bob.token, { organization: 'personal' })).status).toBe(200);
    expect((await api(system.baseUrl, '/v1/credits', bob.token, { organization: orgX })).body).toEqual({ balanceMicros: 2_000_000, reservedMicros: 0 });
  });
});

describe('switches', () => {
  it('answers 503 auth_disabled when the authentication backend is off, and closes sign-up when asked', async () => {
    const system = await startSystem({ mode: 'embedded', environment: { AUTH_ENABLED: 'false', SIGNUP_MODE: 'invite' } });
    try {
      expect(await api(system.baseUrl, '/v1/auth/device-code', undefined, { method: 'POST' })).toMatchObject({ status: 503, body: { error: 'auth_disabled' } });
      await expect(signUp(system.baseUrl, 'dave@example.com')).rejects.toThrow();
    } finally {
      await system.close();
    }
  });
});
