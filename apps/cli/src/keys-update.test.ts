// `vr keys update`: flags become a PATCH with only the fields given (`default`/`none` send null), and
// bad values are refused before any request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runVr } from '../test/capture-output.js';

let configDirectory: string;
let requests: Array<{ method: string; url: string; body: unknown; authorization: string | null }>;

beforeEach(() => {
  configDirectory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-update-'));
  fs.writeFileSync(path.join(configDirectory, 'config.json'), JSON.stringify({ baseUrl: 'http://127.0.0.1:9', sessionToken: 'vr_session_test' }));
  requests = [];
});
afterEach(() => fs.rmSync(configDirectory, { recursive: true, force: true }));

const fakeServer = (async (input: Request | string | URL, init?: RequestInit) => {
  const request = new Request(input, init);
  const body = request.body ? await request.json() : undefined;
  requests.push({ method: request.method, url: request.url, body, authorization: request.headers.get('authorization') });
  const key = { id: 'k1', name: 'renamed', keySuffix: 'abcd', maxConcurrency: null, rateLimitPerMinute: 60, dailySpendCapMicros: 2_500_000, monthlySpendCapMicros: null, createdAt: '2026-11-23T00:00:00.000Z', createdBy: null };
  return new Response(JSON.stringify(key), { status: 200, headers: { 'content-type': 'application/json' } });
}) as typeof globalThis.fetch;

const vr = (argv: string[]) => runVr(argv, { env: { VR_CONFIG_DIR: configDirectory }, fetch: fakeServer });

describe('vr keys update', () => {
  it('sends only the given fields, with null for default and none', async () => {
    const run = await vr(['keys', 'update', 'k1', '--name', ' renamed ', '--max-concurrency', 'default', '--rate-limit', '60', '--daily-cap', '2.50', '--monthly-cap', 'none']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toBe('Updated key k1 "renamed".\n');
    expect(requests).toEqual([{
      method: 'PATCH', url: 'http://127.0.0.1:9/v1/keys/k1', authorization: 'Bearer vr_session_test',
      body: { name: 'renamed', maxConcurrency: null, rateLimitPerMinute: 60, dailySpendCapMicros: 2_500_000, monthlySpendCapMicros: null },
    }]);
    const json = await vr(['keys', 'update', 'k1', '--rate-limit', '60', '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ id: 'k1', rateLimitPerMinute: 60 });
    expect(requests[1]!.body).toEqual({ rateLimitPerMinute: 60 });
  });

  it.each([
    [['keys', 'update', 'k1'], 'give at least one of'],
    [['keys', 'update', 'k1', '--max-concurrency', '0'], '--max-concurrency must be a whole number from 1 to 10000'],
    [['keys', 'update', 'k1', '--daily-cap', 'lots'], '--daily-cap'],
    [['keys', 'update', '--rate-limit', '5'], 'ID'],
  ])('refuses %j before any request', async (argv, message) => {
    const run = await vr(argv);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(message);
    expect(requests).toEqual([]);
  });
});
