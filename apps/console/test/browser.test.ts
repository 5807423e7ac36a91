// The console in a real browser (Debian Chromium driven by playwright-core): sign up, log out,
// log in through a device link, approve the device, create a key and copy it, revoke it, see a
// charge in the wallet and the usage chart, create and switch organizations, invite someone, and
// do the core flows again with JavaScript turned off. Finding fields by label proves the labels.
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startConsole, type RunningConsole } from './console-app.js';

const executablePath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => candidate && existsSync(candidate));
const screenshotDirectory = process.env.VR_TEST_SCREENSHOT_DIR ?? path.join(tmpdir(), 'voice-router-console');
const password = 'correct horse battery staple';

if (!executablePath) {
  console.log('[console] browser test SKIPPED: no Chromium executable (install Debian `chromium` or set CHROMIUM_PATH).');
}

describe.skipIf(!executablePath)('console in Chromium', () => {
  let running: RunningConsole;
  let browser: Browser;
  const problems: string[] = [];

  beforeAll(async () => {
    running = await startConsole();
    // launch() gives every run a fresh temporary user data dir, so nothing carries over.
    browser = await chromium.launch({
      executablePath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    mkdirSync(screenshotDirectory, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  async function newContext(javaScriptEnabled: boolean): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ baseURL: running.baseUrl, javaScriptEnabled, viewport: { width: 1200, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: running.baseUrl });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    // The console must work offline: any request elsewhere, or a CSP violation, is a failure.
    page.on('request', (request) => {
      if (!request.url().startsWith(running.baseUrl) && !request.url().startsWith('data:')) problems.push(`external request ${request.url()}`);
    });
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} for ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return { context, page };
  }

  async function navigate(page: Page, section: string): Promise<void> {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: section }).click();
  }

  async function logIn(page: Page, email: string): Promise<void> {
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
  }

  it('runs the whole console with JavaScript', async () => {
    const { context, page } = await newContext(true);
    await page.goto('/console');
    await expect.poll(() => page.url()).toContain('/console/login');
    await page.getByRole('link', { name: 'Sign up' }).click();
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'API keys' }).waitFor();
    expect(await page.getByText('Account:').textContent()).toContain('ada@example.com');

    // Log out, then follow a device link while logged out: log in, come back with the code.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByText('You have logged out.').waitFor();
    running.services.addDeviceCode('WDJB-MJHT');
    await page.goto('/console/device?user_code=WDJB-MJHT');
    await logIn(page, 'ada@example.com');
    await expect.poll(() => page.url()).toContain('/console/device?user_code=WDJB-MJHT');
    expect(await page.getByLabel('Code').inputValue()).toBe('WDJB-MJHT');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await page.getByLabel('Device code').textContent()).toBe('WDJB-MJHT');
    await page.screenshot({ path: path.join(screenshotDirectory, 'device-approval.png'), fullPage: true });
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Device approved — you can return to your terminal' }).waitFor();
    expect(running.services.deviceCodes.get('WDJBMJHT')?.decision?.decision).toBe('approve');

    // Create a key, read it once, copy it, then revoke it.
    await navigate(page, 'Keys');
    await page.getByLabel('Name').fill('podcast-bot');
    await page.getByLabel('Daily spend cap (USD)').fill('12.50');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = await page.getByLabel('Your new API key').inputValue();
    expect(secret).toMatch(/^pk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await page.screenshot({ path: path.join(screenshotDirectory, 'keys.png'), fullPage: true });
    await navigate(page, 'Keys');
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole('row', { name: /podcast-bot/ });
    expect(await row.textContent()).toContain('$12.50/day');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked.').waitFor();
    expect(await page.getByRole('row', { name: /podcast-bot/ }).count()).toBe(0);

    // A charge made through the data plane appears in the wallet and in the usage chart.
    const { accountId } = running.services.personalAccountOf('ada@example.com');
    running.services.grant(accountId, 5_000_000);
    const day = 86_400_000;
    for (const [daysAgo, provider, costMicros] of [[0, 'openai', 42_000], [0, 'elevenlabs', 90_000], [1, 'openai', 30_000], [2, 'cartesia', 55_000], [4, 'elevenlabs', 120_000], [5, 'openai', 18_000], [6, 'local', 1_000]] as const) {
      running.services.charge(accountId, { provider, costMicros, at: new Date(Date.now() - daysAgo * day) });
    }
    running.services.charge(accountId, { provider: 'openai', costMicros: 500, errorCode: 'upstream_error' });
    await navigate(page, 'Wallet');
    await page.getByRole('cell', { name: '-$0.042' }).waitFor();
    expect(await page.getByText('$4.644').first().textContent()).toContain('$4.644');
    await navigate(page, 'Usage');
    await page.getByRole('link', { name: '7 days' }).click();
    const chart = page.getByRole('img', { name: /Spend per day by provider/ });
    await chart.waitFor();
    expect(await chart.locator('rect').count()).toBe(7);
    expect(await page.getByRole('list', { name: 'Providers' }).textContent()).toContain('elevenlabs');
    await page.screenshot({ path: path.join(screenshotDirectory, 'usage.png'), fullPage: true });

    // Organizations: create one, switch away and back, invite someone and see the link.
    await navigate(page, 'Organizations');
    await page.getByLabel('Organization name').fill('Acme Studio');
    await page.getByRole('button', { name: 'Create organization' }).click();
    await page.getByText('Organization created.').waitFor();
    expect(await page.locator('.who').textContent()).toContain('Acme Studio');
    await page.getByRole('row', { name: /ada@example.com/ }).getByRole('button', { name: 'Switch' }).click();
    expect(await page.locator('.who').textContent()).toContain('ada@example.com');
    await page.getByRole('row', { name: /Acme Studio/ }).getByRole('button', { name: 'Switch' }).click();
    expect(await page.locator('.who').textContent()).toContain('Acme Studio');
    await page.getByLabel('Email').fill('bob@example.com');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await page.getByLabel('Invitation link').inputValue();
    expect(link).toMatch(new RegExp(`^${running.baseUrl}/console/invitations/[A-Za-z0-9_-]+$`));
    await page.screenshot({ path: path.join(screenshotDirectory, 'organizations.png'), fullPage: true });
    await context.close();

    // The invitee opens the link, signs up, and accepts.
    const invitee = await newContext(true);
    await invitee.page.goto(link);
    await invitee.page.getByRole('link', { name: 'Sign up' }).click();
    await invitee.page.getByLabel('Email').fill('bob@example.com');
    await invitee.page.getByLabel('Password').fill(password);
    await invitee.page.getByRole('button', { name: 'Sign up' }).click();
    await invitee.page.getByRole('button', { name: 'Accept invitation' }).click();
    await invitee.page.getByText('Invitation accepted.').waitFor();
    expect(await invitee.page.locator('.who').textContent()).toContain('Acme Studio');
    await invitee.context.close();
    expect(problems).toEqual([]);
  });

  it('works without JavaScript: sign up, approve a device, create and revoke a key', async () => {
    const { context, page } = await newContext(false);
    await page.goto('/console/signup');
    await page.getByLabel('Email').fill('nojs@example.com');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    running.services.addDeviceCode('NOJS-CODE');
    await page.goto('/console/device?user_code=NOJS-CODE');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.getByRole('heading', { name: 'Request denied' }).waitFor();
    await navigate(page, 'Keys');
    await page.getByLabel('Name').fill('no-script');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByLabel('Your new API key').inputValue()).toMatch(/^pk_/);
    // Without the script the Copy button stays hidden: the key is selectable instead.
    expect(await page.getByRole('button', { name: 'Copy' }).count()).toBe(0);
    await navigate(page, 'Keys');
    await page.getByRole('row', { name: /no-script/ }).getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('Key revoked.').waitFor();
    await context.close();
    expect(problems).toEqual([]);
  });
});
