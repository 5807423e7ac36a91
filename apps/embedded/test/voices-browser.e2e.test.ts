// The console's Voices page in a real browser against the real service and the provider doubles: live voices
// (the account clone included) with the API's filters, a provider preview that loads under the page's CSP, and
// a sample priced before it is paid from the wallet and then played.
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ELEVENLABS_CLONED_VOICE_ID, startFakeProviders, type CombinedFakeProviderServer } from '@voice-router/provider-fakes';
import { announceSkip } from '@voice-router/test-support';
import { startSystem, type RunningSystem } from './system.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const browserAvailable = fs.existsSync(CHROMIUM);
if (!browserAvailable) announceSkip('the Voices page browser suite', `no Chromium at ${CHROMIUM} (apt-get install chromium)`);

describe.runIf(browserAvailable)('the console Voices page in Chromium', () => {
  let fake: CombinedFakeProviderServer;
  let system: RunningSystem;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const email = 'voices@example.com';

  beforeAll(async () => {
    fake = await startFakeProviders();
    system = await startSystem({
      mode: 'embedded',
      environment: {
        OPENAI_API_KEY: fake.apiKey, OPENAI_BASE_URL: fake.baseUrlFor('openai'),
        ELEVENLABS_API_KEY: fake.apiKey, ELEVENLABS_BASE_URL: fake.baseUrlFor('elevenlabs'),
        VOICE_CATALOG_REFRESH_MS: '60000',
      },
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
        '--disable-component-update', '--disable-sync', '--autoplay-policy=no-user-gesture-required'],
    });
    const context = await browser.newContext({ baseURL: system.baseUrl });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto('/console/signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    await system.admin('grant', '--email', email, '--usd', '1');
  });
  afterAll(async () => {
    await browser?.close();
    await system?.close();
    await fake?.close();
  });

  /** The subset of HTMLAudioElement used in the page (this package's TypeScript has no DOM library). */
  interface AudioElement {
    preload: string;
    duration: number;
    error: { code: number } | null;
    addEventListener(type: string, listener: () => void, options: { once: boolean }): void;
    load(): void;
  }
  const mediaLoads = (selector: string) =>
    page.locator(selector).first().evaluate((element: AudioElement) => new Promise<number>((resolve, reject) => {
      element.preload = 'auto';
      element.addEventListener('loadedmetadata', () => resolve(element.duration), { once: true });
      element.addEventListener('error', () => reject(new Error(`media error ${element.error?.code}`)), { once: true });
      element.load();
    }));

  it('lists configured providers\' live voices with filters and previews', async () => {
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Voices' }).click();
    await page.getByRole('heading', { name: 'Voices', exact: true }).waitFor();
    // The embedded process lists the providers' voices at start; the clone appears once that finished.
    await vi.waitFor(async () => {
      await page.reload();
      expect(await page.getByRole('cell', { name: 'My Cloned Voice', exact: true }).count()).toBe(1);
    }, { timeout: 30_000, interval: 500 });
    // Cartesia has no key here: none of its voices are offered.
    expect(await page.getByRole('option', { name: 'Cartesia' }).count()).toBe(0);

    await page.getByLabel('Provider').selectOption('elevenlabs');
    await page.getByLabel('Language').fill('en-GB');
    await page.getByLabel('Gender').selectOption('female');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('heading', { name: '1 voices' }).waitFor();
    await page.getByRole('cell', { name: 'Alice', exact: true }).waitFor();
    expect(new URL(page.url()).search).toBe('?provider=elevenlabs&language=en-GB&gender=female');

    const preview = page.getByLabel('Preview of Alice');
    expect(await preview.getAttribute('src')).toBe(`${fake.origin}/__previews/elevenlabs/Xb7hH8MSUJpSbSDYk0k2.mp3`);
    expect(await mediaLoads('audio[aria-label="Preview of Alice"]')).toBeGreaterThan(0);
  });

  it('prices a sample first, then pays for it from the wallet and plays it', async () => {
    await page.goto('/console/voices?provider=elevenlabs');
    expect(await page.getByLabel('Preview of My Cloned Voice').count()).toBe(0);
    await page.getByRole('link', { name: 'Try My Cloned Voice' }).click();
    await page.getByRole('heading', { name: 'Try My Cloned Voice (ElevenLabs)' }).waitFor();
    await page.getByLabel('Model').selectOption('eleven_flash_v2_5');
    await page.getByLabel('Format').selectOption('mp3');
    await page.getByLabel('Text').fill('Hello there');
    await page.getByRole('button', { name: 'Show price' }).click();
    // 11 characters × 50 micros (Flash) = 550 micros.
    expect(await page.getByTestId('sample-price').textContent()).toBe('$0.00055');
    const synthesesBefore = fake.requests.filter((request) => request.method === 'POST').length;
    expect(synthesesBefore).toBe(0);

    await page.getByRole('button', { name: 'Synthesize for $0.00055' }).click();
    await page.getByText('Charged $0.00055.').waitFor();
    const synthesis = fake.requests.filter((request) => request.method === 'POST');
    expect(synthesis).toHaveLength(1);
    expect(synthesis[0]!.path).toContain(`/v1/text-to-speech/${ELEVENLABS_CLONED_VOICE_ID}/stream`);
    expect(await page.getByTestId('sample-audio').getAttribute('src')).toMatch(/^data:audio\/mpeg;base64,/);
    expect(await mediaLoads('[data-testid="sample-audio"]')).toBeGreaterThan(0);

    await page.goto('/console/wallet');
    await page.getByText('$0.99945').first().waitFor();
    // The key the sample was paid with is revoked: nothing can spend with it any more.
    await page.goto('/console/keys');
    expect(await page.getByText('console sample').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('plays a PCM sample too (wrapped as WAV for the browser only)', async () => {
    await page.goto(`/console/voices?provider=elevenlabs&sample_provider=elevenlabs&sample_voice=21m00Tcm4TlvDq8ikWAM&sample_model=eleven_flash_v2_5&sample_format=pcm&sample_text=${encodeURIComponent('Hi')}`);
    await page.getByRole('button', { name: 'Synthesize for $0.0001' }).click();
    await page.getByText('Charged $0.0001.').waitFor();
    expect(await page.getByTestId('sample-audio').getAttribute('src')).toMatch(/^data:audio\/wav;base64,/);
    expect(await mediaLoads('[data-testid="sample-audio"]')).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});
