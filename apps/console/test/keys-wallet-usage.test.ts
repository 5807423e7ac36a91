// Keys (secret shown once, limits parsed exactly, revoke only for the creator), the wallet with a
// charge, and the usage chart.
import { afterEach, describe, expect, it } from 'vitest';
import { startConsole, type RunningConsole } from './console-app.js';
import { signedUpClient } from './http-client.js';

let running: RunningConsole | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const keyForm = { name: 'podcast-bot', max_concurrency: '', rate_limit_per_minute: '', daily_spend_cap: '', monthly_spend_cap: '' };

describe('keys', () => {
  it('shows the secret once, with a Copy button and a warning, then only its suffix', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    expect(client.lastBody).toContain('<label for="name">Name</label>');
    const created = await client.post('/console/keys', keyForm);
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const secret = [...running.services.keys.values()][0]!.secret;
    expect(created.body).toContain(`value="${secret}"`);
    expect(created.body).toContain('>Copy</button>');
    expect(created.body).toContain('only once');
    const list = await client.get('/console/keys');
    expect(list.body).not.toContain(secret);
    expect(list.body).toContain(`pk_…${secret.slice(-4)}`);
    expect(list.body).toContain('>Revoke</button>');
    // No limits of its own: the deployment defaults the services report, never "None".
    expect(list.body).toContain('<td class="small">8 concurrent (default) · 600/min (default)</td>');
  });

  it('converts the limits exactly and shows them', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.post('/console/keys', { ...keyForm, max_concurrency: '3', rate_limit_per_minute: '60', daily_spend_cap: '12.50', monthly_spend_cap: '0.000001' });
    const stored = [...running.services.keys.values()][0]!.key;
    expect(stored).toMatchObject({ maxConcurrency: 3, rateLimitPerMinute: 60, dailySpendCapMicros: 12_500_000, monthlySpendCapMicros: 1 });
    const list = await client.get('/console/keys');
    expect(list.body).toContain('3 concurrent · 60/min · $12.50/day · $0.000001/month');
  });

  it.each([
    [{ daily_spend_cap: '1.0000001' }, 'Daily spend cap: Enter a non-negative amount'],
    [{ monthly_spend_cap: '-1' }, 'Monthly spend cap: Enter a non-negative amount'],
    [{ daily_spend_cap: 'abc' }, 'Daily spend cap: Enter a non-negative amount'],
    [{ max_concurrency: '0' }, 'Max concurrency must be a whole number'],
    [{ rate_limit_per_minute: '2.5' }, 'Requests per minute must be a whole number'],
    [{ name: '   ' }, 'Name is required.'],
  ])('refuses %j with a message and keeps the form', async (override, message) => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const reply = await client.post('/console/keys', { ...keyForm, ...override });
    expect(reply.status).toBe(400);
    expect(reply.body).toContain(message);
    expect(running.services.keys.size).toBe(0);
  });

  it('shows Revoke on keys a viewer may revoke: a member their own, an owner every key; a member is refused others\' (403)', async () => {
    running = await startConsole();
    const owner = await signedUpClient(running.baseUrl, 'ada@example.com');
    await owner.post('/console/organizations', { name: 'Acme' });
    const organization = [...running.services.accounts.values()].find((account) => account.name === 'Acme')!;
    const member = await signedUpClient(running.baseUrl, 'bob@example.com');
    organization.members.set(running.services.users.get('bob@example.com')!.userId, 'member');
    await member.get('/console/organizations');
    await member.post('/console/accounts/switch', { account_id: organization.accountId });
    await member.get('/console/keys');
    await member.post('/console/keys', { ...keyForm, name: 'bobs-key' });

    await owner.get('/console/keys');
    await owner.post('/console/keys', { ...keyForm, name: 'adas-key' });
    const rowsOf = (body: string) => body.split('<tr>').slice(2);
    const memberRows = rowsOf((await member.get('/console/keys')).body);
    expect(memberRows.find((row) => row.includes('adas-key'))).not.toContain('Revoke');
    expect(memberRows.find((row) => row.includes('bobs-key'))).toContain('>Revoke</button>');
    const ownerRows = rowsOf((await owner.get('/console/keys')).body);
    expect(ownerRows.find((row) => row.includes('bobs-key'))).toContain('>Revoke</button>');
    expect(ownerRows.find((row) => row.includes('adas-key'))).toContain('>Revoke</button>');

    const adasKey = [...running.services.keys.values()].find((entry) => entry.key.name === 'adas-key')!;
    await member.get('/console/keys');
    const refused = await member.post(`/console/keys/${adasKey.key.id}/revoke`, {});
    expect(refused.status).toBe(403);
    expect(adasKey.revoked).toBe(false);
    const bobsKey = [...running.services.keys.values()].find((entry) => entry.key.name === 'bobs-key')!;
    const revoked = await owner.post(`/console/keys/${bobsKey.key.id}/revoke`, {});
    expect(revoked.location).toBe('/console/keys?notice=key-revoked');
    expect(bobsKey.revoked).toBe(true);
    expect((await owner.get('/console/keys?notice=key-revoked')).body).toContain('Key revoked.');
    await owner.post(`/console/keys/${adasKey.key.id}/revoke`, {});
    expect(adasKey.revoked).toBe(true);
  });
});

describe('wallet and usage', () => {
  it('shows balance, reserved, spendable and a charge in the activity', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const account = running.services.personalAccountOf('ada@example.com');
    running.services.grant(account.accountId, 5_000_000);
    running.services.charge(account.accountId, { provider: 'openai', costMicros: 1_234 });
    account.reserved = 500;
    const page = await client.get('/console/wallet');
    expect(page.body).toContain('$4.998766');
    expect(page.body).toContain('$0.0005');
    expect(page.body).toContain('$4.998266');
    expect(page.body).toContain('Charge');
    expect(page.body).toContain('-$0.001234');
    expect(page.body).toContain('+$5.00');
  });

  it('draws spend per day as an accessible SVG with a legend and the tables', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const { accountId } = running.services.personalAccountOf('ada@example.com');
    const yesterday = new Date(Date.now() - 86_400_000);
    running.services.charge(accountId, { provider: 'openai', costMicros: 15_000 });
    running.services.charge(accountId, { provider: 'elevenlabs', costMicros: 30_000, at: yesterday });
    running.services.charge(accountId, { provider: 'openai', costMicros: 100, errorCode: 'upstream_error' });
    const page = await client.get('/console/usage?days=7');
    expect(page.body).toContain('aria-current="page">7 days</a>');
    expect(page.body).toMatch(/<svg class="chart"[^>]*role="img" aria-labelledby="chart-title chart-desc"/);
    expect(page.body).toContain('<title id="chart-title">Spend per day by provider</title>');
    expect(page.body).toContain('Total $0.045');
    expect(page.body.match(/<rect x=/g)?.length).toBe(2);
    expect(page.body).toContain(`${new Date().toISOString().slice(0, 10)} · openai: $0.015 (1 request)`);
    expect(page.body).toMatch(/<ul class="legend"[^>]*>.*elevenlabs.*openai/s);
    expect(page.body).toContain('<code>upstream_error</code>');
    expect((await client.get('/console/usage?days=12')).body).toContain('aria-current="page">30 days</a>');
  });
});

describe('editing a key', () => {
  it('prefills the form, saves changed limits exactly, and empties back to the default or no cap', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    await client.post('/console/keys', { ...keyForm, max_concurrency: '3', daily_spend_cap: '1234.5' });
    const stored = [...running.services.keys.values()][0]!.key;
    const list = await client.get('/console/keys');
    expect(list.body).toContain(`href="/console/keys/${stored.id}/edit"`);
    const page = await client.get(`/console/keys/${stored.id}/edit`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('value="3"');
    expect(page.body).toContain('value="1234.5"');
    const saved = await client.post(`/console/keys/${stored.id}/edit`, {
      name: 'renamed', max_concurrency: '', rate_limit_per_minute: '90', daily_spend_cap: '', monthly_spend_cap: '0.25',
    });
    expect(saved.status).toBe(303);
    expect(saved.headers.get('location')).toBe('/console/keys?notice=key-updated');
    expect((await client.get('/console/keys?notice=key-updated')).body).toContain('Key updated');
    expect(stored).toMatchObject({ name: 'renamed', maxConcurrency: null, rateLimitPerMinute: 90, dailySpendCapMicros: null, monthlySpendCapMicros: 250_000 });

    const refused = await client.post(`/console/keys/${stored.id}/edit`, { ...keyForm, name: 'x', max_concurrency: '0' });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('Max concurrency must be a whole number');
    expect(stored.name).toBe('renamed');
  });

  it('answers 404 for a key the member may not edit', async () => {
    running = await startConsole();
    const client = await signedUpClient(running.baseUrl, 'ada@example.com');
    const page = await client.get('/console/keys/00000000-0000-4000-8000-000000000000/edit');
    expect(page.status).toBe(404);
  });
});
