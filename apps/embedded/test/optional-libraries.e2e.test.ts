// The default embedded process (no REDIS_URL, no STRIPE_SECRET_KEY) never loads ioredis, BullMQ or Stripe:
// they are loaded on first use (README, "Run modes"), which this mode never reaches, even while it serves
// speech, settles it and answers billing requests. With billing configured, Stripe is loaded: the recorder
// sees what it is meant to see.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { settled, speech } from './e2e-support.js';
import { fundedKey, startSystem, type RunningSystem } from './system.js';

const RECORDER = fileURLToPath(new URL('./library-recorder.mjs', import.meta.url));

/** The libraries the process has loaded so far, by ES import or require. */
async function loadedLibraries(system: RunningSystem, record: string): Promise<string[]> {
  process.kill(system.pid('embedded')!, 'SIGUSR2');
  const deadline = Date.now() + 10_000;
  while (!fs.readFileSync(record, 'utf8').includes('checked\n')) {
    if (Date.now() > deadline) throw new Error('the library recorder did not answer');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const names = fs.readFileSync(record, 'utf8').split('\n').flatMap((line) => (line.startsWith('import ') || line.startsWith('require ') ? [line.split(' ')[1]!] : []));
  return [...new Set(names)].sort();
}

describe('libraries only some configurations need (embedded mode)', () => {
  let openai: FakeProviderServer;
  let system: RunningSystem | undefined;
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-libraries-'));

  beforeAll(async () => {
    openai = await startFakeProvider('openai', { chunkBytes: 4096 });
  });
  afterEach(async () => {
    await system?.close();
    system = undefined;
  });
  afterAll(async () => {
    await openai.close();
    fs.rmSync(directory, { recursive: true, force: true });
  });

  async function start(name: string, environment: Record<string, string>): Promise<string> {
    const record = path.join(directory, `${name}.txt`);
    fs.writeFileSync(record, '');
    system = await startSystem({
      mode: 'embedded',
      nodeOptions: ['--import', RECORDER],
      environment: { LIBRARY_RECORD_FILE: record, OPENAI_API_KEY: openai.apiKey, OPENAI_BASE_URL: openai.baseUrl, ...environment },
    });
    return record;
  }

  it('by default loads none of ioredis, BullMQ and Stripe, through speech, its settlement and the billing endpoints', async () => {
    const record = await start('default', {});
    const user = await fundedKey(system!, '1');
    const response = await speech(system!.baseUrl, user.key, { model: 'openai/tts-1', voice: 'alloy', input: 'Hello there.' });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await settled(system!.baseUrl, user.key);
    const webhook = await fetch(`${system!.baseUrl}/v1/billing/webhook`, { method: 'POST', body: '{}', headers: { 'stripe-signature': 't=1,v1=00' } });
    expect(webhook.status).toBe(503);
    expect(await loadedLibraries(system!, record)).toEqual([]);
  });

  it('loads Stripe once billing is configured (STRIPE_SECRET_KEY), and still no Redis client', async () => {
    const record = await start('billing', { STRIPE_SECRET_KEY: `sk_test_${crypto.randomBytes(12).toString('hex')}` });
    expect(await loadedLibraries(system!, record)).toEqual(['stripe']);
  });
});
