// Logging `vr` in through a real browser, shared by the suites that need a login session: start
// `vr login --no-browser`, sign up in the console, and answer the printed link.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { CapturedStream, runVr, type VrRun } from './capture-output.js';

export const CHROMIUM = process.env.VR_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** Starts `vr login` and resolves with the complete URI as soon as it is printed. */
export async function startLogin(env: Record<string, string>): Promise<{ completeUri: string; userCode: string; finished: Promise<VrRun> }> {
  const stdout = new CapturedStream();
  const finished = runVr(['login', '--no-browser'], { env, stdout });
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /open this link, which has the code filled in:\n\s+(\S+)/.exec(stdout.text);
    if (match) return { completeUri: match[1]!, userCode: /^\s+([A-Z]{4}-[A-Z]{4})$/m.exec(stdout.text)![1]!, finished };
    if (Date.now() > deadline) throw new Error(`vr login printed no link: ${stdout.text}`);
    const early = await Promise.race([finished, new Promise((resolve) => setTimeout(resolve, 50))]);
    if (early) throw new Error(`vr login ended early: ${JSON.stringify(early)}`);
  }
}

export async function signUp(page: Page, baseUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/console/signup`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForURL((url) => !url.pathname.endsWith('/signup')), page.getByRole('button', { name: 'Sign up' }).click()]);
}

/** Opens the printed link and answers; the console may first ask to confirm the pre-filled code. */
export async function answerInBrowser(page: Page, completeUri: string, userCode: string, decision: 'Approve' | 'Deny'): Promise<void> {
  await page.goto(completeUri);
  const answer = page.getByRole('button', { name: decision });
  const confirmCode = page.getByRole('button', { name: 'Continue' });
  await expect.poll(async () => (await answer.count()) + (await confirmCode.count()), { timeout: 15_000 }).toBeGreaterThan(0);
  if ((await answer.count()) === 0) {
    expect(await page.getByLabel('Code').inputValue()).toBe(userCode);
    await confirmCode.click();
  }
  await expect.poll(() => page.content()).toContain(userCode);
  await answer.click();
}
