// Organizations: create and switch (the account cookie is re-checked on every request), invite
// with a link built from the forwarded host, and accept it as the invited user.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from './console-app.js';
import { ConsoleClient, signedUpClient } from './http-client.js';

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('organizations', () => {
  it('creates an organization, switches to it and back', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const page = await client.get('/console/organizations');
    expect(page.body).toContain('<label for="organization_name">Organization name</label>');
    const created = await client.post('/console/organizations', { name: 'Acme Studio' });
    expect(created.location).toBe('/console/organizations?notice=organization-created');
    const organization = await client.get(created.location!);
    expect(organization.body).toContain('Account: <strong>Acme Studio</strong>');
    expect(organization.body).toContain('Members of Acme Studio');
    const personal = running.services.personalAccountOf('ada@example.com');
    const switched = await client.post('/console/accounts/switch', { account_id: personal.accountId });
    expect(switched.location).toBe('/console/organizations?notice=account-switched');
    expect(switched.setCookies.find((line) => line.startsWith('vr_account='))).toMatch(/HttpOnly.*SameSite=Lax/);
    expect((await client.get('/console/keys')).body).toContain('Account: <strong>ada@example.com</strong>');
  });

  it('ignores an account cookie for an account the user is not a member of', async () => {
    running = await startConsole();
    const other = await signedUpClient(running.baseUrl, 'eve@example.com');
    await other.post('/console/organizations', { name: 'Eve Corp' });
    const eveOrganization = [...running.services.accounts.values()].find((account) => account.name === 'Eve Corp')!;
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    client.cookies.set('vr_account', eveOrganization.accountId);
    const page = await client.get('/console/keys');
    expect(page.body).toContain('Account: <strong>ada@example.com</strong>');
    expect(page.body).not.toContain('Eve Corp');
    const switched = await client.post('/console/accounts/switch', { account_id: eveOrganization.accountId });
    expect(switched.status).toBe(404);
  });

  it('invites by email, shows a link on the forwarded host, and the invitee accepts it', async () => {
    running = await startConsole();
    // The owner exists already (as an operator would create them); then sign-up closes.
    await running.services.signUp({ email: 'ada@example.com', password: 'correct horse battery', ip: 'test' });
    running.services.signupIsOpen = false;
    const owner = new ConsoleClient(running.baseUrl, { 'x-forwarded-host': 'voice.example.com', 'x-forwarded-proto': 'https' });
    await owner.get('/console/login');
    await owner.post('/console/login', { email: 'ada@example.com', password: 'correct horse battery' });
    await owner.get('/console/organizations');
    await owner.post('/console/organizations', { name: 'Acme' });
    // With sign-up closed only an operator-made organization admits someone new.
    [...running.services.accounts.values()].find((account) => account.name === 'Acme')!.operatorManaged = true;
    await owner.get('/console/organizations');
    expect(owner.lastBody).toContain('<label for="invite_email">Email</label>');
    const invited = await owner.post('/console/organizations/invitations', { email: 'bob@example.com' });
    const link = /id="invitation-link" type="text" value="([^"]+)"/.exec(invited.body)?.[1];
    expect(link).toMatch(/^https:\/\/voice\.example\.com\/console\/invitations\/[A-Za-z0-9_-]+$/);
    expect(invited.body).toContain('>Copy</button>');
    const path = new URL(link!).pathname;

    const invitee = new ConsoleClient(running.baseUrl);
    const landing = await invitee.get(path);
    expect(landing.body).toContain('Sign up');
    const signupHref = /href="(\/console\/signup\?[^"]+)"/.exec(landing.body)![1]!.replaceAll('&amp;', '&');
    const signupPage = await invitee.get(signupHref);
    expect(signupPage.body).toContain('<button type="submit">Sign up</button>');
    const token = path.split('/').pop()!;
    const signedUp = await invitee.post('/console/signup', { email: 'bob@example.com', password: 'correct horse battery', next: path, invitation: token });
    expect(signedUp.location).toBe(path);
    const accept = await invitee.get(path);
    expect(accept.body).toContain('<button type="submit">Accept invitation</button>');
    const accepted = await invitee.post(path, {});
    expect(accepted.location).toBe('/console/organizations?notice=invitation-accepted');
    const members = await invitee.get(accepted.location!);
    expect(members.body).toContain('Account: <strong>Acme</strong>');
    expect(members.body).toContain('<td>bob@example.com</td><td>Member</td>');

    const again = await invitee.post(path, {});
    expect(again.status).toBe(409);
    expect(again.body).toContain('already been accepted');
  });

  it('tells a user logged in with another email why the invitation does not apply', async () => {
    running = await startConsole();
    const owner = await signedUpClient(running.baseUrl, 'ada@example.com');
    await owner.post('/console/organizations', { name: 'Acme' });
    await owner.get('/console/organizations');
    const invited = await owner.post('/console/organizations/invitations', { email: 'bob@example.com' });
    const path = new URL(/id="invitation-link" type="text" value="([^"]+)"/.exec(invited.body)![1]!).pathname;
    const eve = await signedUpClient(running.baseUrl, 'eve@example.com');
    await eve.get(path);
    const refused = await eve.post(path, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('sent to another email address');
  });

  it('shows the service message when a member may not invite', async () => {
    running = await startConsole();
    const owner = await signedUpClient(running.baseUrl, 'ada@example.com');
    await owner.post('/console/organizations', { name: 'Acme' });
    const organization = [...running.services.accounts.values()].find((account) => account.name === 'Acme')!;
    const member = await signedUpClient(running.baseUrl, 'bob@example.com');
    organization.members.set(running.services.users.get('bob@example.com')!.userId, 'member');
    await member.get('/console/organizations');
    await member.post('/console/accounts/switch', { account_id: organization.accountId });
    await member.get('/console/organizations');
    const refused = await member.post('/console/organizations/invitations', { email: 'carol@example.com' });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Only owners of an organization can invite.');
  });
});
