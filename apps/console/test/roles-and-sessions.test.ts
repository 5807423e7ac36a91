// What each role sees and may do on the organizations page, the Sessions page (list, revoke, log out
// everywhere, change password), and the guessing limit on the device approval step.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from './console-app.js';
import { ConsoleClient, signedUpClient } from './http-client.js';

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function organizationWithMember(console: RunningConsole) {
  const owner = await signedUpClient(console.baseUrl, 'ada@example.com');
  await owner.post('/console/organizations', { name: 'Acme' });
  const organization = [...console.services.accounts.values()].find((account) => account.name === 'Acme')!;
  const member = await signedUpClient(console.baseUrl, 'bob@example.com');
  const memberId = console.services.users.get('bob@example.com')!.userId;
  organization.members.set(memberId, 'member');
  await member.get('/console/organizations');
  await member.post('/console/accounts/switch', { account_id: organization.accountId });
  return { owner, member, memberId, organization };
}

describe('organization roles in the console', () => {
  it('shows a member the members but no invite form, invitations or Remove; posting either is refused (403)', async () => {
    running = await startConsole();
    const { owner, member, organization } = await organizationWithMember(running);
    const page = await member.get('/console/organizations');
    expect(page.body).toContain('<td>ada@example.com</td><td>Owner</td>');
    expect(page.body).not.toContain('invite_email');
    expect(page.body).not.toContain('>Remove</button>');
    expect(page.body).toContain('Only owners invite and remove members.');

    const invited = await member.post('/console/organizations/invitations', { email: 'carol@example.com' });
    expect(invited.status).toBe(403);
    expect(running.services.invitations.size).toBe(0);
    const ownerId = running.services.users.get('ada@example.com')!.userId;
    await member.get('/console/organizations');
    const removed = await member.post(`/console/organizations/members/${ownerId}/remove`, {});
    expect(removed.status).toBe(403);
    expect(organization.members.get(ownerId)).toBe('owner');

    const ownerPage = await owner.get('/console/organizations');
    expect(ownerPage.body).toContain('invite_email');
  });

  it('lets an owner remove a member (their keys there are revoked) but not an owner', async () => {
    running = await startConsole();
    const { owner, member, memberId, organization } = await organizationWithMember(running);
    await member.get('/console/keys');
    await member.post('/console/keys', { name: 'bobs-key', max_concurrency: '', rate_limit_per_minute: '', daily_spend_cap: '', monthly_spend_cap: '' });
    const bobsKey = [...running.services.keys.values()].find((entry) => entry.key.name === 'bobs-key')!;

    const page = await owner.get('/console/organizations');
    const rows = page.body.split('<tr>');
    expect(rows.find((row) => row.includes('bob@example.com'))).toContain('>Remove</button>');
    expect(rows.find((row) => row.includes('<td>ada@example.com</td>'))).not.toContain('>Remove</button>');
    const ownerId = running.services.users.get('ada@example.com')!.userId;
    const refused = await owner.post(`/console/organizations/members/${ownerId}/remove`, {});
    expect(refused.status).toBe(409);

    await owner.get('/console/organizations');
    const removed = await owner.post(`/console/organizations/members/${memberId}/remove`, {});
    expect(removed.location).toBe('/console/organizations?notice=member-removed');
    expect(organization.members.has(memberId)).toBe(false);
    expect(bobsKey.revoked).toBe(true);
    expect((await owner.get(removed.location!)).body).toContain('Member removed.');
  });

  it('with sign-up closed, refuses to invite someone new into an organization the operator did not make', async () => {
    running = await startConsole();
    const owner = await signedUpClient(running.baseUrl, 'ada@example.com');
    await signedUpClient(running.baseUrl, 'bob@example.com');
    running.services.signupIsOpen = false;
    await owner.post('/console/organizations', { name: 'Self-made' });
    await owner.get('/console/organizations');
    const refused = await owner.post('/console/organizations/invitations', { email: 'new-person@example.com' });
    expect(refused.status).toBe(403);
    expect(running.services.invitations.size).toBe(0);
    const existing = await owner.post('/console/organizations/invitations', { email: 'bob@example.com' });
    expect(existing.status).toBe(200);
    expect(existing.body).toContain('id="invitation-link"');
  });
});

describe('sessions page', () => {
  async function twoBrowsers(console: RunningConsole) {
    const first = await signedUpClient(console.baseUrl, 'ada@example.com');
    const second = new ConsoleClient(console.baseUrl);
    await second.get('/console/login');
    const login = await second.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery', next: '/console/sessions' });
    expect(login.location).toBe('/console/sessions');
    return { first, second };
  }

  it('lists the sessions with the current one marked and no token on the page', async () => {
    running = await startConsole();
    const { first } = await twoBrowsers(running);
    const page = await first.get('/console/sessions');
    expect(page.status).toBe(200);
    expect(page.body).toContain('<a href="/console/sessions" aria-current="page">Sessions</a>');
    expect(page.body.match(/Console \(browser\)/g)).toHaveLength(2);
    expect(page.body.match(/This browser/g)).toHaveLength(1);
    expect(page.body).not.toContain(first.cookies.get('vr_console')!);
    expect(page.body).toContain('>Log out everywhere</button>');
  });

  it('revokes another session, and revoking the current one logs out here', async () => {
    running = await startConsole();
    const { first, second } = await twoBrowsers(running);
    const page = await first.get('/console/sessions');
    const rows = page.body.split('<tr>').slice(2);
    const otherAction = /action="(\/console\/sessions\/[^"]+\/revoke)"/.exec(rows.find((row) => !row.includes('This browser'))!)![1]!;
    const revoked = await first.post(otherAction, {});
    expect(revoked.location).toBe('/console/sessions?notice=session-revoked');
    expect((await second.get('/console/sessions')).status).toBe(303);
    expect((await first.get('/console/sessions')).status).toBe(200);
    expect((await first.post(otherAction, {})).status).toBe(404);

    const ownAction = /action="(\/console\/sessions\/[^"]+\/revoke)"/.exec((await first.get('/console/sessions')).body)![1]!;
    const loggedOut = await first.post(ownAction, {});
    expect(loggedOut.location).toBe('/console/login?notice=logged-out');
    expect(first.cookies.has('vr_console')).toBe(false);
  });

  it('logs out everywhere', async () => {
    running = await startConsole();
    const { first, second } = await twoBrowsers(running);
    await first.get('/console/sessions');
    const everywhere = await first.post('/console/sessions/revoke-all', {});
    expect(everywhere.location).toBe('/console/login?notice=logged-out-everywhere');
    expect((await first.get('/console/sessions')).status).toBe(303);
    expect((await second.get('/console/sessions')).status).toBe(303);
  });

  it('changes the password only with the current one, ending every other session but this one', async () => {
    running = await startConsole();
    const { first, second } = await twoBrowsers(running);
    await first.get('/console/sessions');
    const wrong = await first.post('/console/password', { current_password: 'not the password', new_password: 'another long password' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toContain('The current password is wrong.');
    const weak = await first.post('/console/password', { current_password: 'correct horse battery', new_password: 'short' });
    expect(weak.status).toBe(400);
    expect((await second.get('/console/sessions')).status).toBe(200);

    await first.get('/console/sessions');
    const changed = await first.post('/console/password', { current_password: 'correct horse battery', new_password: 'another long password' });
    expect(changed.location).toBe('/console/sessions?notice=password-changed');
    expect((await first.get(changed.location!)).body).toContain('Password changed.');
    expect((await second.get('/console/sessions')).status).toBe(303);
    const fresh = new ConsoleClient(running.baseUrl);
    await fresh.get('/console/login');
    expect((await fresh.post('/console/login', { email: 'ada@example.com', password: 'another long password' })).status).toBe(303);
  });
});

describe('device approval step', () => {
  it('counts wrong codes on the approval step too, and refuses once the budget is spent (429)', async () => {
    running = await startConsole();
    running.services.addDeviceCode('WDJB-MJHT');
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.get('/console/device');
    for (let attempt = 0; attempt < running.services.attemptLimit; attempt++) {
      expect((await client.post('/console/device/decide', { user_code: `NOPE-000${attempt}`, decision: 'approve' })).status).toBe(404);
    }
    const limited = await client.post('/console/device/decide', { user_code: 'WDJB-MJHT', decision: 'approve' });
    expect(limited.status).toBe(429);
    expect(limited.body).toContain('Too many wrong codes.');
    expect(running.services.deviceCodes.get('WDJBMJHT')?.decision).toBeUndefined();
  });
});
