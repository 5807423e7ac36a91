// `vr` against the real embedded service: catalog commands, the wallet and speech with a pk_ key
// minted by the operator CLI, and the messages people see when things go wrong. OpenAI is configured
// with a key but pointed at a closed port, so its requests fail upstream after the wallet check.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, parseMp3Frames } from '@voice-router/test-support';
import { runVr, runVrUntil } from './capture-output.js';
import { runVrProcess, startService, type RunningService } from './running-service.js';

let service: RunningService;
let scratch: string;
let env: Record<string, string>;

beforeAll(async () => {
  const closedPort = await freePort();
  service = await startService({
    OPENAI_API_KEY: 'sk-cli-e2e',
    // Nothing listens there; the version path follows the OpenAI SDK convention all the same.
    OPENAI_BASE_URL: `http://127.0.0.1:${closedPort}/v1`,
    UPSTREAM_MAX_ATTEMPTS: '1',
    UPSTREAM_ATTEMPT_TIMEOUT_MS: '3000',
  });
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-e2e-home-'));
  env = { VR_CONFIG_DIR: path.join(scratch, 'config'), VR_BASE_URL: service.baseUrl };
});

afterAll(async () => {
  await service?.close();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

async function fundedKey(usd: string): Promise<string> {
  const email = `cli-${Math.random().toString(36).slice(2)}@example.com`;
  await service.admin('create-user', '--email', email);
  const key = await service.admin('create-key', '--email', email, '--name', 'cli-e2e');
  if (usd !== '0') await service.admin('grant', '--email', email, '--usd', usd);
  return key.keyValue as string;
}

describe('catalog commands (any credential)', () => {
  let keyEnv: Record<string, string>;
  beforeAll(async () => {
    keyEnv = { ...env, VR_API_KEY: await fundedKey('0') };
  });

  it('need a credential: without one they stop before any request, and the server refuses a bad one', async () => {
    for (const command of ['status', 'providers', 'voices']) {
      const run = await runVr([command], { env });
      expect(run.exitCode).toBe(1);
      expect(run.stderr).toContain('Not logged in: run `vr login`, or pass an API key');
      const refused = await runVr([command, '--api-key', 'pk_not_a_key'], { env });
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain('The API key was not accepted');
    }
  });

  it('vr status shows local available, and openai too since it has a key', async () => {
    const run = await runVr(['status'], { env: keyEnv });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^local\s+available\s*$/m);
    expect(run.stdout).toMatch(/^openai\s+available\s*$/m);
    expect(run.stdout).toMatch(/^elevenlabs\s+unavailable\s+missing_api_key$/m);
    const json = JSON.parse((await runVr(['status', '--json'], { env: keyEnv })).stdout);
    expect(json.providers.map((provider: { id: string }) => provider.id)).toContain('local');
  });

  it('vr providers lists every model, and --json is the server\'s document', async () => {
    const run = await runVr(['providers'], { env: keyEnv });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout.split('\n')[0]).toMatch(/^MODEL\s+NAME\s+FORMATS\s+PER 1M CHARS\s+MAX CHARS$/);
    expect(run.stdout).toMatch(/^local\/espeak-ng\s.*mp3,pcm\s+\$0\s+\d+$/m);
    expect(run.stdout).toMatch(/^openai\/tts-1\s.*\$15\s+4096$/m);
    const json = JSON.parse((await runVr(['providers', '--json'], { env: keyEnv })).stdout);
    const headers = { authorization: `Bearer ${keyEnv.VR_API_KEY}` };
    expect(json).toEqual(await (await fetch(`${service.baseUrl}/v1/providers`, { headers })).json());
  });

  it('vr voices --provider local --language en filters on the server', async () => {
    const run = await runVr(['voices', '--provider', 'local', '--language', 'en'], { env: keyEnv });
    expect(run.exitCode, run.stderr).toBe(0);
    const rows = run.stdout.trimEnd().split('\n').slice(1);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) expect(row).toMatch(/^local\s+\S+\s.*\sen(-\S+)?\s/);
    const json = JSON.parse((await runVr(['voices', '--provider', 'local', '--language', 'en', '--gender', 'female', '--json'], { env: keyEnv })).stdout);
    expect(json.voices.length).toBeGreaterThan(0);
    for (const voice of json.voices) expect(voice).toMatchObject({ provider: 'local', labels: { gender: 'female' } });
  });
});

describe('wallet and speech with a pk_ key', () => {
  it('vr credits and vr say write a real MP3 and report provider and cost; vr activity shows the request', async () => {
    const key = await fundedKey('2.5');
    const credits = await runVr(['credits', '--api-key', key], { env });
    expect(credits.exitCode, credits.stderr).toBe(0);
    expect(credits.stdout).toBe('Balance    $2.50\nReserved   $0.00\nSpendable  $2.50\n');
    expect(JSON.parse((await runVr(['credits', '--json'], { env: { ...env, VR_API_KEY: key } })).stdout)).toEqual({ balanceMicros: 2_500_000, reservedMicros: 0 });

    const file = path.join(scratch, 'hello.mp3');
    const say = await runVr(['say', 'Hello from the Voice Router command line', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', file], {
      env: { ...env, VR_API_KEY: key },
    });
    expect(say.exitCode, say.stderr).toBe(0);
    expect(say.stdout).toBe('');
    expect(say.stderr).toMatch(/^Wrote .*hello\.mp3: \d+ bytes, provider local, cost \$0\.00, request [0-9a-f-]{36}\n$/);
    const audio = fs.readFileSync(file);
    expect(audio.length).toBeGreaterThan(2000);
    expect(audio[0]).toBe(0xff);
    expect(audio[1]! & 0xe0).toBe(0xe0);
    const summary = parseMp3Frames(audio);
    expect(summary.durationSeconds).toBeGreaterThan(1);
    expect(summary.trailingBytes).toBe(0);
    const requestId = /request ([0-9a-f-]{36})/.exec(say.stderr)![1]!;

    // Settlement is asynchronous (the commit lands a few milliseconds after the stream ends, later on a
    // busy machine): read the activity until the commit is there, as a user running `vr activity` would.
    const activity = await runVrUntil(['activity', '--limit', '5', '--api-key', key], { env }, (run) => /\bcommit\b/.test(run.stdout));
    expect(activity.exitCode, activity.stderr).toBe(0);
    expect(activity.stdout.split('\n')[0]).toMatch(/^TIME\s+KIND\s+CHANGE\s+HELD\s+BALANCE\s+SOURCE\s+REQUEST$/);
    expect(activity.stdout).toMatch(new RegExp(`commit\\s+\\$0\\.00\\s+\\$2\\.50\\s+\\S+\\s+${requestId}`));
    expect(activity.stdout).toMatch(/top-up\s+\$2\.50\s+\$2\.50\s+admin/);
    const rows = JSON.parse((await runVr(['activity', '--json', '--api-key', key], { env })).stdout).rows;
    expect(rows[0]).toMatchObject({ kind: 'commit', reservationId: requestId });
  });

  it('the vr binary streams PCM or MP3 to a pipe when no -o is given', async () => {
    const key = await fundedKey('1');
    const mp3 = await runVrProcess(['say', 'Piped audio', '--model', 'local/espeak-ng', '--voice', 'en-us'], { ...env, VR_API_KEY: key });
    expect(mp3.exitCode, mp3.stderr).toBe(0);
    expect(parseMp3Frames(new Uint8Array(mp3.stdout)).frames).toBeGreaterThan(5);
    expect(mp3.stderr).toMatch(/^Streamed \d+ bytes, provider local/);
    const pcm = await runVrProcess(['say', 'Raw samples', '--model', 'local/espeak-ng', '--voice', 'en-us', '--format', 'pcm', '-o', '-'], { ...env, VR_API_KEY: key });
    expect(pcm.exitCode, pcm.stderr).toBe(0);
    // 16-bit samples at 24 kHz: an even byte count, and a short sentence lasts well over a tenth of a second.
    expect(pcm.stdout.length % 2).toBe(0);
    expect(pcm.stdout.length).toBeGreaterThan(4800);
  });
});

describe('error messages from the real service', () => {
  it('a wrong key is named as the problem', async () => {
    const run = await runVr(['credits', '--api-key', 'pk_not_a_real_key'], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^error: The API key was not accepted \(mistyped or revoked\).*--api-key, VR_API_KEY/);
    // A refused request leaves an earlier recording of the same name alone and no partial file behind.
    const earlier = path.join(scratch, 'earlier.mp3');
    fs.writeFileSync(earlier, 'earlier recording');
    const say = await runVr(['say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', earlier, '--api-key', 'pk_nope'], { env });
    expect(say.exitCode).toBe(1);
    expect(say.stderr).toContain('The API key was not accepted');
    expect(fs.readFileSync(earlier, 'utf8')).toBe('earlier recording');
    expect(fs.readdirSync(scratch).filter((name) => name.endsWith('.part'))).toEqual([]);
  });

  it('an unwritable output path fails before the request is sent', async () => {
    const key = await fundedKey('0');
    const run = await runVr(['say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', path.join(scratch, 'missing-folder', 'x.mp3'), '--api-key', key], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^error: Cannot write next to .*x\.mp3: ENOENT/);
    const activity = JSON.parse((await runVr(['activity', '--json', '--api-key', key], { env })).stdout);
    expect(activity.rows).toEqual([]);
  });

  it('an empty wallet, an unknown model, a failing provider and a provider without a key', async () => {
    const emptyKey = await fundedKey('0');
    const say = (key: string, model: string) =>
      runVr(['say', 'Hello there', '--model', model, '--voice', 'alloy', '-o', path.join(scratch, 'x.mp3'), '--api-key', key], { env });

    const broke = await say(emptyKey, 'openai/tts-1');
    expect(broke.exitCode).toBe(1);
    expect(broke.stderr).toMatch(/^error: Your wallet cannot cover this request.*vr credits/);

    const fundedKeyValue = await fundedKey('1');
    const unknown = await say(fundedKeyValue, 'nobody/model');
    expect(unknown.stderr).toMatch(/^error: Unknown model .*vr providers/);

    const upstream = await say(fundedKeyValue, 'openai/tts-1');
    expect(upstream.exitCode).toBe(1);
    expect(upstream.stderr).toMatch(/^error: The speech provider (failed|did not answer in time).*Nothing was charged/);
    // The void is written asynchronously after the error went out (settlement is in-process here, a
    // batch every few milliseconds; on a loaded machine it can land after the next command starts).
    let credits = '';
    for (const started = Date.now(); Date.now() - started < 10_000;) {
      credits = (await runVr(['credits', '--api-key', fundedKeyValue], { env })).stdout;
      if (credits.includes('Reserved   $0.00\n')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(credits).toContain('Spendable  $1.00');

    const unavailable = await say(fundedKeyValue, 'cartesia/sonic-3');
    expect(unavailable.stderr).toMatch(/^error: That provider is not available on this server.*vr status/);
  });

  it('a server that is not there', async () => {
    const port = await freePort();
    const run = await runVr(['status', '--api-key', 'pk_anything', '--base-url', `http://127.0.0.1:${port}`], { env });
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toBe(`error: Cannot reach the server at http://127.0.0.1:${port} (ECONNREFUSED): is it running? Set --base-url or VR_BASE_URL.\n`);
  });
});
