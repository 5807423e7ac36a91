// Roles and sessions through the real HTTP interface, in both run modes: only owners invite, remove
// members and revoke other members' keys (each refusal is 403); a user lists and revokes their own
// sessions, logs out everywhere, and a new password ends the other sessions. Invitation-only sign-up
// cannot be bypassed with a self-made organization (embedded mode: the rule lives in the control plane).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, person, type Person } from './accounts-support.js';
import { ConsoleClient } from './console-client.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('roles and sessions suites in the scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

async function switchTo(client: ConsoleClient, accountId: string): Promise<void> {
  const switched = await client.submit('/console/organizations', /\/console\/accounts\/switch/, { account_id: accountId }, 'Switch');
  expect(switched.status).toBe(303);
}

function invitationLink(html: string): string | undefined {
  return /(http[^"<\s]*\/console\/invitations\/vr_invite_[A-Za-z0-9_-]+)/.exec(html)?.[1];
}

describe.each(modes)('roles (%s mode)', (mode) => {
  let system: RunningSystem;
  let owner: Person;
  let member: Person;
  let organizationId: string;

  beforeAll(async () => {
    system = await startSystem({ mode, environment: {} });
    [owner, member] = await Promise.all([person(system.baseUrl, 'owner@example.com'), person(system.baseUrl, 'member@example.com')]);
    organizationId = (await system.admin('create-org', '--name', 'Acme', '--owner', 'owner@example.com')).accountId as string;
    await system.admin('add-member', '--org', organizationId, '--email', 'member@example.com');
    await switchTo(owner.console, organizationId);
    await switchTo(member.console, organizationId);
  });
  afterAll(async () => {
    await system?.close();
  });

  it('lets only owners revoke other members\' keys (a member gets 403)', async () => {
    const mint = (who: Person, name: string) =>
      api(system.baseUrl, '/v1/keys', who.token, { method: 'POST', body: JSON.stringify({ name }), organization: organizationId });
    const ownerKey = (await mint(owner, 'owner-key')).body;
    const memberKey = (await mint(member, 'member-key')).body;
    const revoke = (who: Person, keyId: string) => api(system.baseUrl, `/v1/keys/${keyId}`, who.token, { method: 'DELETE' });
    expect(await revoke(member, ownerKey.id)).toMatchObject({ status: 403, body: { error: 'forbidden' } });
    expect((await api(system.baseUrl, '/v1/credits', ownerKey.keyValue)).status).toBe(200);
    expect(await revoke(owner, memberKey.id)).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await api(system.baseUrl, '/v1/credits', memberKey.keyValue)).status).toBe(401);
    // Someone outside the organization learns nothing (404, not 403).
    const stranger = await person(system.baseUrl, `stranger-${mode}@example.com`);
    expect(await revoke(stranger, ownerKey.id)).toMatchObject({ status: 404, body: { error: 'not_found' } });
    // The console shows Revoke accordingly.
    const rows = (html: string) => html.split('<tr>').slice(2);
    const memberView = rows((await member.console.get('/console/keys')).html);
    expect(memberView.find((row) => row.includes('owner-key'))).not.toContain('>Revoke</button>');
    const ownerView = rows((await owner.console.get('/console/keys')).html);
    expect(ownerView.find((row) => row.includes('owner-key'))).toContain('>Revoke</button>');
  });

  it('lets only owners invite (a member gets 403 and no form)', async () => {
    const memberPage = await member.console.get('/console/organizations');
    expect(memberPage.html).not.toContain('name="email"');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(memberPage.html)![1]!;
    const forged = `<form method="post" action="/console/organizations/invitations"><input type="hidden" name="_csrf" value="${csrf}"/></form>`;
    const refused = await member.console.submitFromHtml(forged, '/console/organizations', /invitations/, undefined, { email: 'friend@example.com' });
    expect(refused.status).toBe(403);
    const invited = await owner.console.submit('/console/organizations', /\/console\/organizations\/invitations/, { email: 'friend@example.com' });
    expect(invited.status).toBe(200);
    expect(invitationLink(invited.html)).toBeDefined();
  });

  it('lets only owners remove members; a removed member loses the organization and the keys they made there', async () => {
    const leaver = await person(system.baseUrl, `leaver-${mode}@example.com`);
    await system.admin('add-member', '--org', organizationId, '--email', `leaver-${mode}@example.com`);
    const leaverKey = (await api(system.baseUrl, '/v1/keys', leaver.token, { method: 'POST', body: '{"name":"leaver-key"}', organization: organizationId })).body;
    const personalKey = (await api(system.baseUrl, '/v1/keys', leaver.token, { method: 'POST', body: '{"name":"mine"}', organization: 'personal' })).body;

    const memberPage = await member.console.get('/console/organizations');
    expect(memberPage.html).not.toContain('>Remove</button>');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(memberPage.html)![1]!;
    const forged = `<form method="post" action="/console/organizations/members/${leaver.userId}/remove"><input type="hidden" name="_csrf" value="${csrf}"/></form>`;
    expect((await member.console.submitFromHtml(forged, '/console/organizations', /remove/)).status).toBe(403);

    const ownerPage = await owner.console.get('/console/organizations');
    const removeAction = new RegExp(`/console/organizations/members/${leaver.userId}/remove`);
    const removed = await owner.console.submitFromHtml(ownerPage.html, '/console/organizations', removeAction, 'Remove');
    expect(removed).toMatchObject({ status: 303, location: '/console/organizations?notice=member-removed' });
    const accounts = (await api(system.baseUrl, '/v1/auth/whoami', leaver.token)).body.accounts as Array<{ accountId: string }>;
    expect(accounts.map((account) => account.accountId)).not.toContain(organizationId);
    expect((await api(system.baseUrl, '/v1/credits', leaverKey.keyValue)).status).toBe(401);
    expect((await api(system.baseUrl, '/v1/credits', personalKey.keyValue)).status).toBe(200);
    expect(await api(system.baseUrl, '/v1/keys', leaver.token, { organization: organizationId })).toMatchObject({ status: 403, body: { error: 'forbidden' } });
  });
});

describe.each(modes)('sessions (%s mode)', (mode) => {
  let system: RunningSystem;

  beforeAll(async () => {
    system = await startSystem({ mode, environment: {} });
  });
  afterAll(async () => {
    await system?.close();
  });

  it('lists the user\'s sessions without tokens, revokes one, and logs out everywhere', async () => {
    const alice = await person(system.baseUrl, 'alice@example.com');
    const other = await person(system.baseUrl, 'other@example.com');
    const listed = await api(system.baseUrl, '/v1/auth/sessions', alice.token);
    expect(listed.status).toBe(200);
    const sessions = listed.body.sessions as Array<{ id: string; kind: string; current: boolean; created_at: string; expires_at: string }>;
    expect(sessions.map((session) => session.kind).sort()).toEqual(['cli', 'console']);
    expect(sessions.find((session) => session.current)).toMatchObject({ kind: 'cli' });
    expect(Object.keys(sessions[0]!).sort()).toEqual(['created_at', 'current', 'expires_at', 'id', 'kind']);
    expect(JSON.stringify(listed.body)).not.toContain(alice.token);
    const consoleSession = sessions.find((session) => session.kind === 'console')!;

    const othersId = (await api(system.baseUrl, '/v1/auth/sessions', other.token)).body.sessions[0].id as string;
    expect(await api(system.baseUrl, `/v1/auth/sessions/${othersId}`, alice.token, { method: 'DELETE' })).toMatchObject({ status: 404, body: { error: 'not_found' } });
    expect((await api(system.baseUrl, '/v1/auth/whoami', other.token)).status).toBe(200);
    expect(await api(system.baseUrl, `/v1/auth/sessions/${consoleSession.id}`, alice.token, { method: 'DELETE' })).toMatchObject({ status: 200, body: { revoked: true } });
    expect((await alice.console.get('/console/sessions')).status).toBe(303);
    expect(await api(system.baseUrl, '/v1/auth/sessions', 'pk_not_a_session')).toMatchObject({ status: 401 });

    const browser = new ConsoleClient(system.baseUrl);
    expect((await browser.submit('/console/login', /\/console\/login/, { email: 'alice@example.com', password: 'correct horse battery' })).status).toBe(303);
    expect(await api(system.baseUrl, '/v1/auth/logout-all', alice.token, { method: 'POST' })).toMatchObject({ status: 200, body: { revoked_count: 2 } });
    expect((await api(system.baseUrl, '/v1/auth/whoami', alice.token)).status).toBe(401);
    expect((await browser.get('/console/sessions')).status).toBe(303);
    expect((await api(system.baseUrl, '/v1/auth/whoami', other.token)).status).toBe(200);
  });

  it('ends every other session when the password changes in the console, and all of them when the operator sets one', async () => {
    const bob = await person(system.baseUrl, 'bob@example.com');
    const page = await bob.console.get('/console/sessions');
    expect(page.html).toContain('CLI (vr login)');
    const changed = await bob.console.submitFromHtml(page.html, '/console/sessions', /\/console\/password/, 'Change password', {
      current_password: 'correct horse battery', new_password: 'a brand new passphrase',
    });
    expect(changed).toMatchObject({ status: 303, location: '/console/sessions?notice=password-changed' });
    expect((await api(system.baseUrl, '/v1/auth/whoami', bob.token)).status).toBe(401);
    expect((await bob.console.get('/console/sessions')).status).toBe(200);

    await system.admin('set-password', '--email', 'bob@example.com', '--password', 'operator chosen passphrase');
    expect((await bob.console.get('/console/sessions')).status).toBe(303);
    const again = new ConsoleClient(system.baseUrl);
    expect((await again.submit('/console/login', /\/console\/login/, { email: 'bob@example.com', password: 'operator chosen passphrase' })).status).toBe(303);
  });
});

describe('invitation-only sign-up (embedded mode)', () => {
  let system: RunningSystem;
  beforeAll(async () => {
    system = await startSystem({ mode: 'embedded', environment: { SIGNUP_MODE: 'invite' } });
  });
  afterAll(async () => {
    await system?.close();
  });

  async function loggedIn(email: string): Promise<ConsoleClient> {
    await system.admin('create-user', '--email', email);
    await system.admin('set-password', '--email', email, '--password', 'correct horse battery');
    const client = new ConsoleClient(system.baseUrl);
    expect((await client.submit('/console/login', /\/console\/login/, { email, password: 'correct horse battery' })).status).toBe(303);
    return client;
  }

  it('cannot be bypassed with a self-made organization; operator-made organizations may invite new people', async () => {
    const founder = await loggedIn('founder@example.com');
    await loggedIn('existing@example.com');
    await founder.submit('/console/organizations', /\/console\/organizations$/, { name: 'Self-made' });
    const refused = await founder.submit('/console/organizations', /\/console\/organizations\/invitations/, { email: 'sockpuppet@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('only organizations created by the operator can invite new people');
    // Posting the sign-up form anyway (the page shows none) changes nothing either.
    const visitor = new ConsoleClient(system.baseUrl);
    const loginPage = await visitor.get('/console/login');
    const forged = loginPage.html.replace(/action="\/console\/login[^"]*"/, 'action="/console/signup"');
    const attempt = await visitor.submitFromHtml(forged, '/console/login', /\/console\/signup/, undefined, { email: 'sockpuppet@example.com', password: 'correct horse battery' });
    expect(attempt.status).toBe(403);
    // Existing users may still be invited into it.
    const existing = await founder.submit('/console/organizations', /\/console\/organizations\/invitations/, { email: 'existing@example.com' });
    expect(invitationLink(existing.html)).toBeDefined();

    const managed = (await system.admin('create-org', '--name', 'Managed', '--owner', 'founder@example.com')).accountId as string;
    await switchTo(founder, managed);
    const invited = await founder.submit('/console/organizations', /\/console\/organizations\/invitations/, { email: 'newcomer@example.com' });
    const link = invitationLink(invited.html)!;
    expect(link).toBeDefined();
    const token = link.split('/').pop()!;
    const newcomer = new ConsoleClient(system.baseUrl);
    const signedUp = await newcomer.submit(`/console/signup?invitation=${token}`, /\/console\/signup/, { email: 'newcomer@example.com', password: 'correct horse battery' });
    expect(signedUp.status).toBe(303);
    // That invitation admits only its own email.
    const other = new ConsoleClient(system.baseUrl);
    const wrongEmail = await other.submit(`/console/signup?invitation=${token}`, /\/console\/signup/, { email: 'someone-else@example.com', password: 'correct horse battery' });
    expect(wrongEmail.status).toBe(403);
  });
});
