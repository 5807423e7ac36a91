// The web console in a real browser against the real service: sign up, log out and in, approve a
// device code, create a key (shown once), spend with it, see the charge, revoke it.
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProviders, type CombinedFakeProviderServer, type FakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { api, poll, startDeviceLogin } from './accounts-support.js';
import { settled, speech } from './e2e-support.js';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserAvailable = fs.existsSync(CHROMIUM);
if (!browserAvailable) announceSkip('console browser suites', `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const scaledAvailable = Boolean(postgresUrl() && redisUrl());
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

describe.runIf(browserAvailable).each(modes)('the console in Chromium (%s mode)', (mode) => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;
  let browser: Browser;
  let page: Page;
  const email = `browser-${mode}@example.com`;
  const password = 'a long enough password';

  beforeAll(async () => {
    fake = await startFakeProviders();
    system = await startSystem({ mode, environment: { OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai') } });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ baseURL: system.baseUrl });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: system.baseUrl });
    page = await context.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
  });

  it('signs up, logs out and logs back in', async () => {
    await page.goto('/console/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.goto('/console/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Wrong email or password.').waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    const cookies = await page.context().cookies();
    expect(cookies.find((cookie) => cookie.name === 'vr_console')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  });

  it('approves a device code from the verification link', async () => {
    const login = await startDeviceLogin(system.baseUrl);
    await page.goto(login.verification_uri_complete);
    expect(await page.getByLabel('Code').inputValue()).toBe(login.user_code);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(login.user_code).waitFor();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/approved/i).first().waitFor();
    const approved = await poll(system.baseUrl, login.device_code);
    expect(approved.status).toBe(200);
    expect((await api(system.baseUrl, '/v1/auth/whoami', approved.body.session_token)).body).toMatchObject({ email, auth: 'session' });
  });

  it('creates a key shown once, sees its charge in the wallet, and revokes it', async () => {
    await page.goto('/console/keys');
    await page.getByLabel('Name').fill('browser key');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Your new API key').inputValue();
    expect(secret).toMatch(/^pk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(secret);
    await page.goto('/console/keys');
    expect(await page.content()).not.toContain(secret);
    await page.getByText('browser key').waitFor();

    await system.admin('grant', '--email', email, '--usd', '1');
    const response = await speech(system.baseUrl, secret, { model: 'openai/tts-1', voice: 'alloy', input: 'Seen in the console' });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await settled(system.baseUrl, secret);
    await page.goto('/console/wallet');
    const charge = page.getByRole('row').filter({ hasText: 'Charge' });
    await charge.first().waitFor();
    expect(await charge.count()).toBe(1);
    expect(await charge.textContent()).toContain('0.000285');
    await page.goto('/console/usage');
    await page.locator('svg').first().waitFor();
    await page.getByRole('cell', { name: 'openai' }).first().waitFor();

    await page.goto('/console/keys');
    await page.getByRole('row').filter({ hasText: 'browser key' }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('row').filter({ hasText: 'browser key' }).waitFor({ state: 'detached' });
    // Same process (embedded): refused at once. Another process (scaled-out): within the one-second bound.
    const revokedAt = Date.now();
    let status = (await api(system.baseUrl, '/v1/credits', secret)).status;
    while (mode === 'scaled' && status === 200 && Date.now() - revokedAt < 1_000) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      status = (await api(system.baseUrl, '/v1/credits', secret)).status;
    }
    expect(status).toBe(401);
  });
});
