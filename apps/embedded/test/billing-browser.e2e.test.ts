// Card billing in a real browser against the real service (both run modes) with the Stripe double as
// the payment processor: add a card on the hosted Checkout page, top up, see the webhook credit the
// wallet, a declined card, 3-D Secure at setup and on a top-up (then a top-up that needs none).
import crypto from 'node:crypto';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeDouble, type StripeDouble } from '@voice-router/stripe-double';
import { announceSkip, postgresUrl, redisUrl } from '@voice-router/test-support';
import { startSystem, type RunningSystem, type SystemMode } from './system.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserAvailable = fs.existsSync(CHROMIUM);
if (!browserAvailable) announceSkip('billing browser suites', `no Chromium at ${CHROMIUM} (apt-get install chromium)`);
const scaledAvailable = Boolean(postgresUrl() && redisUrl());
if (!scaledAvailable) announceSkip('billing browser suite, scaled-out mode', 'DATABASE_URL and REDIS_URL are not both set');
const modes: SystemMode[] = scaledAvailable ? ['embedded', 'scaled'] : ['embedded'];

describe.runIf(browserAvailable).each(modes)('card billing in Chromium (%s mode)', (mode) => {
  let double: StripeDouble;
  let stripe: Stripe;
  let system: RunningSystem;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    double = await startStripeDouble();
    stripe = new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 0 });
    const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
    system = await startSystem({
      mode,
      environment: { STRIPE_SECRET_KEY: double.secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE_URL: double.baseUrl },
    });
    // Stripe reaches the router at its public URL; in the scaled-out mode the data plane forwards to the control plane.
    double.addWebhookEndpoint(`${system.baseUrl}/v1/billing/webhook`, { secret: webhookSecret });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync'],
    });
    page = await (await browser.newContext({ baseURL: system.baseUrl })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await double?.close();
  });

  async function addCard(number: string, challenge?: 'Complete authentication'): Promise<void> {
    await page.goto('/console/billing');
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.waitForURL((url) => url.origin === double.baseUrl);
    await page.getByLabel('Card number').fill(number);
    await page.getByRole('button', { name: 'Save card' }).click();
    if (challenge) {
      await page.getByRole('heading', { name: '3D Secure 2 Test Page' }).waitFor();
      await page.getByRole('button', { name: challenge }).click();
    }
    await page.getByText('Card added.').waitFor();
  }

  async function topUp(amount: string, cardId: string): Promise<void> {
    await page.goto('/console/billing');
    await page.getByLabel('Amount (USD)').fill(amount);
    await page.getByLabel('Card', { exact: true }).selectOption(cardId);
    await page.getByRole('button', { name: 'Top up' }).click();
  }

  /** The balance shown on the Wallet page once the webhook has credited it (reloads until then). */
  async function expectBalance(text: string): Promise<void> {
    await expect.poll(async () => {
      await page.goto('/console/wallet');
      return page.locator('.stat').filter({ hasText: 'Balance' }).locator('.value').textContent();
    }, { timeout: 20_000 }).toBe(text);
  }

  async function cardIds(): Promise<string[]> {
    await page.goto('/console/billing');
    return page.locator('#payment_method_id option').evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value));
  }

  it('signs up, finds Billing in the navigation and adds a card on Stripe\'s hosted page', async () => {
    await page.goto('/console/signup');
    await page.getByLabel('Email').fill(`billing-${mode}@example.com`);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('link', { name: 'Billing' }).click();
    await page.getByText('No saved card yet.').waitFor();
    await addCard('4242 4242 4242 4242');
    await page.getByRole('listitem').filter({ hasText: /^Visa ending 4242/ }).waitFor();
  });

  it('tops up, shows the top-up pending or completed, and the webhook credits the wallet', async () => {
    const [visa] = await cardIds();
    await topUp('25', visa!);
    await page.getByText('Your card was charged.').waitFor();
    expect(await page.getByRole('row').filter({ hasText: '$25.00' }).textContent()).toMatch(/Pending|Completed/);
    await expectBalance('$25.00');
    expect(await page.getByRole('row').filter({ hasText: 'Top-up' }).first().textContent()).toContain('stripe');
    await page.goto('/console/billing');
    expect(await page.getByRole('row').filter({ hasText: '$25.00' }).textContent()).toContain('Completed');
  });

  it('refuses amounts out of bounds and shows a declined card without charging', async () => {
    const [visa] = await cardIds();
    await topUp('9.99', visa!);
    await page.getByText('Enter an amount from $10.00 to $1,000.00.').waitFor();
    await addCard('4000 0000 0000 0341');
    const [declining] = await cardIds();
    await topUp('10', declining!);
    await page.getByText('The card was declined (generic_decline). Nothing was charged.').waitFor();
    await expectBalance('$25.00');
  });

  it('challenges a card on setup when its bank asks, after which top-ups need no challenge', async () => {
    await addCard('4000002500003155', 'Complete authentication');
    const [setUp] = await cardIds();
    await topUp('10', setUp!);
    await page.getByText('Your card was charged.').waitFor();
    await expectBalance('$35.00');
  });

  it('finishes a 3-D Secure challenge for a top-up, then tops up off-session without one', async () => {
    // A card saved without being set up for off-session payments: its first off-session charge needs the cardholder.
    const customer = double.customers().find((candidate) => candidate.metadata.account_id)!;
    const card = await stripe.paymentMethods.attach('pm_card_authenticationRequiredOnSetup', { customer: customer.id });
    await topUp('30', card.id);
    await page.waitForURL(/\/console\/billing\/authenticate\/pi_/);
    await page.getByText('Your bank wants you to confirm the top-up of $30.00').waitFor();
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.waitForURL((url) => url.origin === double.baseUrl);
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByText('Payment of $30.00 confirmed.').waitFor();
    await expectBalance('$65.00');

    await topUp('15', card.id);
    await page.getByText('Your card was charged.').waitFor();
    expect(page.url()).toMatch(/\/console\/billing\?notice=top-up-charged$/);
    await expectBalance('$80.00');
    const charged = double.paymentIntents(customer.id).filter((intent) => intent.status === 'succeeded').map((intent) => intent.amount);
    expect(charged.sort((a, b) => a - b)).toEqual([1000, 1500, 2500, 3000]);
  });
});
