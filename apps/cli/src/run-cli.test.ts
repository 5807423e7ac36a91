// Whole-CLI behaviour that needs no server: help, exit codes, and refusals before any request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVr } from '../test/capture-output.js';

let configDirectory: string;
const noNetwork = (async () => expect.unreachable('no request expected')) as unknown as typeof globalThis.fetch;
beforeEach(() => {
  configDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-run-'));
});
afterEach(() => fs.rmSync(configDirectory, { recursive: true, force: true }));

const vr = (argv: string[], extra: { stdoutIsTTY?: boolean; env?: Record<string, string> } = {}) =>
  runVr(argv, { env: { VR_CONFIG_DIR: configDirectory, ...extra.env }, fetch: noNetwork, stdoutIsTTY: extra.stdoutIsTTY });

describe('runCli', () => {
  it('lists every command in --help and shows per-command usage', async () => {
    const help = await vr(['--help']);
    expect(help.exitCode).toBe(0);
    for (const command of ['login', 'logout', 'whoami', 'keys list', 'keys create', 'keys update', 'keys revoke', 'credits', 'activity', 'usage', 'voices', 'providers', 'status', 'say']) {
      expect(help.stdout).toContain(`  ${command} `);
    }
    const say = await vr(['say', '--help']);
    expect(say.stdout).toContain('Usage: vr say "TEXT" --model');
    expect((await vr(['help', 'keys', 'create'])).stdout).toContain('--save');
    expect((await vr(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('exits 2 on bad arguments, naming the help to read', async () => {
    const unknown = await vr(['frobnicate']);
    expect(unknown).toMatchObject({ exitCode: 2, stderr: 'error: unknown command "frobnicate" (see `vr --help`)\n' });
    expect((await vr(['keys'])).stderr).toContain('`vr keys` takes list, create, update or revoke');
    expect((await vr(['usage', '--days', '0'])).stderr).toContain('--days must be a whole number from 1 to 365');
    expect((await vr(['keys', 'create', '--name', 'x', '--daily-cap', '1.0000001'])).exitCode).toBe(2);
    expect((await vr(['status', '--base-url', 'nope'])).exitCode).toBe(2);
  });

  it('refuses to write audio to a terminal', async () => {
    const run = await vr(['say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '--api-key', 'pk_x'], { stdoutIsTTY: true });
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('refusing to write audio to a terminal');
  });

  it('explains which credential is missing before sending anything', async () => {
    const say = await vr(['say', 'hi', '--model', 'local/espeak-ng', '--voice', 'en-us', '-o', '-']);
    expect(say).toMatchObject({ exitCode: 1 });
    expect(say.stderr).toContain('needs an API key (pk_…)');
    expect((await vr(['keys', 'list'])).stderr).toContain('Not logged in: run `vr login`');
    expect((await vr(['credits'])).stderr).toContain('Not logged in: run `vr login`, or pass an API key');
    expect((await vr(['logout'])).stdout).toBe('Not logged in.\n');
  });
});
