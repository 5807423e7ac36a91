// `vr billing` against the real embedded service with the Stripe double as the payment processor:
// the card is added in a real browser (Stripe's hosted page), top-ups run from the command line,
// and a top-up the bank wants confirmed prints the console page that finishes it.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeDouble, type StripeDouble } from '@voice-router/stripe-double';
import { announceSkip } from '@voice-router/test-support';
import { answerInBrowser, CHROMIUM, CHROMIUM_ARGS, signUp, startLogin } from './browser-login.js';
import { runVr } from './capture-output.js';
import { startService, type RunningService } from './running-service.js';

const browserAvailable = fs.existsSync(CHROMIUM);
if (!browserAvailable) announceSkip('vr billing end to end', `no Chromium at ${CHROMIUM} (apt-get install chromium, or set VR_TEST_CHROMIUM)`);

describe.runIf(browserAvailable)('vr billing end to end', () => {
  let double: StripeDouble;
  let service: RunningService;
  let browser: Browser;
  let page: Page;
  let scratch: string;
  let env: Record<string, string>;
  const vr = (...argv: string[]) => runVr(argv, { env });

  beforeAll(async () => {
    double = await startStripeDouble();
    const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
    service = await startService({ STRIPE_SECRET_KEY: double.secretKey, STRIPE_WEBHOOK_SECRET: webhookSecret, STRIPE_API_BASE_URL: double.baseUrl });
    double.addWebhookEndpoint(`${service.baseUrl}/v1/billing/webhook`, { secret: webhookSecret });
    scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-billing-'));
    env = { VR_CONFIG_DIR: path.join(scratch, 'config'), VR_BASE_URL: service.baseUrl };
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
    await double?.close();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  });

  async function balance(): Promise<string> {
    return /^Balance\s+(\S+)$/m.exec((await vr('credits')).stdout)?.[1] ?? '';
  }

  it('lists cards, tops up, retries safely, and sends a 3-D Secure top-up to the console', async () => {
    await signUp(page, service.baseUrl, 'cli-billing@example.com', 'a long enough password');
    const login = await startLogin(env);
    await answerInBrowser(page, login.completeUri, login.userCode, 'Approve');
    expect((await login.finished).exitCode).toBe(0);

    const none = await vr('billing', 'methods');
    expect(none.exitCode, none.stderr).toBe(0);
    expect(none.stdout).toContain(`(no saved card: add one at ${service.baseUrl}/console/billing)`);

    await page.goto(`${service.baseUrl}/console/billing`);
    await page.getByRole('button', { name: 'Add a card' }).click();
    await page.getByLabel('Card number').fill('4242424242424242');
    await page.getByRole('button', { name: 'Save card' }).click();
    await page.getByText('Card added.').waitFor();

    const listed = await vr('billing', 'methods');
    expect(listed.stdout).toMatch(/^ID\s+CARD\s+EXPIRES$/m);
    expect(listed.stdout).toMatch(/^pm_\S+\s+visa ending 4242\s+12\/\d{4}$/m);
    const visa = JSON.parse((await vr('billing', 'methods', '--json')).stdout).methods[0].id as string;

    const charged = await vr('billing', 'topup', '--amount', '25', '--card', visa);
    expect(charged.exitCode, charged.stderr).toBe(0);
    expect(charged.stdout).toMatch(new RegExp(`^Charged \\$25\\.00 to ${visa} \\(payment pi_\\w+\\)\\.$`, 'm'));
    await expect.poll(balance, { timeout: 20_000 }).toBe('$25.00');

    const refused = await vr('billing', 'topup', '--amount', '9.99', '--card', visa);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--amount must be from $10.00 to $1,000.00');

    // The same key twice is one charge; the same key for another amount is refused.
    const first = await vr('billing', 'topup', '--amount', '10', '--card', visa, '--idempotency-key', 'retry-1', '--json');
    const second = await vr('billing', 'topup', '--amount', '10', '--card', visa, '--idempotency-key', 'retry-1', '--json');
    expect(JSON.parse(second.stdout).payment_intent_id).toBe(JSON.parse(first.stdout).payment_intent_id);
    expect((await vr('billing', 'topup', '--amount', '20', '--card', visa, '--idempotency-key', 'retry-1')).stderr)
      .toContain('already used for a different top-up');
    await expect.poll(balance, { timeout: 20_000 }).toBe('$35.00');

    const stripe = new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 0 });
    const customer = double.customers()[0]!.id;
    const declining = await stripe.paymentMethods.attach('pm_card_chargeCustomerFail', { customer });
    const declined = await vr('billing', 'topup', '--amount', '10', '--card', declining.id);
    expect(declined.exitCode).toBe(1);
    expect(declined.stderr).toMatch(/^error: The card was declined \(.*generic_decline.*\)\. Nothing was charged/);

    const needsBank = await stripe.paymentMethods.attach('pm_card_authenticationRequiredOnSetup', { customer });
    const challenged = await vr('billing', 'topup', '--amount', '30', '--card', needsBank.id);
    expect(challenged.exitCode).toBe(1);
    const url = /Open (\S+\/console\/billing\/authenticate\/pi_\w+) in a browser/.exec(challenged.stderr)?.[1];
    expect(url, challenged.stderr).toBeDefined();
    await page.goto(url!);
    await page.getByRole('button', { name: 'Continue to your bank' }).click();
    await page.getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByText('Payment of $30.00 confirmed.').waitFor();
    await expect.poll(balance, { timeout: 20_000 }).toBe('$65.00');

    const after = await vr('billing', 'topup', '--amount', '15', '--card', needsBank.id);
    expect(after.exitCode, after.stderr).toBe(0);
    await expect.poll(balance, { timeout: 20_000 }).toBe('$80.00');
  });
});
