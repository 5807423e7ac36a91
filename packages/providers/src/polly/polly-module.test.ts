// The hand-written Polly module: when it counts as configured, its settings, and signing through the shared
// HTTP adapter (each call signed afresh; a session token travels signed).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionPools } from '../http/connection-pools.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { collect } from '../__fixtures__/speech-helpers.js';
import { POLLY_FAKE_REGION, POLLY_FAKE_SECRET_ACCESS_KEY } from './polly-double.js';
import { pollyProvider } from './index.js';

let fake: FakeProviderServer;
let pools: ConnectionPools;
beforeAll(async () => {
  fake = await startFakeProvider('polly');
  pools = new ConnectionPools();
});
afterAll(async () => {
  await pools.close();
  await fake.close();
});

const settings = () => ({ accessKeyId: fake.apiKey, secretAccessKey: POLLY_FAKE_SECRET_ACCESS_KEY, region: POLLY_FAKE_REGION, endpoint: fake.baseUrl });
const input = { modelId: 'neural', voice: 'Joanna', text: 'Hello from the module test.', format: 'pcm' as const, providerOptions: {} };

describe('pollyProvider', () => {
  it('needs the access key id, the secret and the region', () => {
    expect(pollyProvider.isConfigured({ accessKeyId: 'a', secretAccessKey: 's', region: 'eu-west-1' })).toBe(true);
    expect(pollyProvider.isConfigured({ accessKeyId: 'a', secretAccessKey: 's' })).toBe(false);
    expect(pollyProvider.isConfigured({ accessKeyId: 'a', region: 'eu-west-1' })).toBe(false);
    expect(pollyProvider.isConfigured(undefined)).toBe(false);
    expect(() => pollyProvider.create({ accessKeyId: 'a' }, { attemptTimeoutMs: 1000, pools })).toThrow(/AWS_REGION/);
  });

  it('declares the AWS SDK environment names, the credentials as secrets', () => {
    const names = Object.fromEntries(Object.entries(pollyProvider.settings).map(([key, spec]) => [key, [spec.env, spec.secret === true]]));
    expect(names).toEqual({
      accessKeyId: ['AWS_ACCESS_KEY_ID', true],
      secretAccessKey: ['AWS_SECRET_ACCESS_KEY', true],
      sessionToken: ['AWS_SESSION_TOKEN', true],
      region: ['AWS_REGION', false],
      endpoint: ['AWS_ENDPOINT_URL_POLLY', false],
    });
    expect(pollyProvider.settings.region!.schema.safeParse('us-gov-west-1').success).toBe(true);
    expect(pollyProvider.settings.region!.schema.safeParse('us east').success).toBe(false);
  });

  it('signs each call: a 503 is a retryable server error, and the retry is signed again and accepted', async () => {
    const adapter = pollyProvider.create(settings(), { attemptTimeoutMs: 2000, pools });
    fake.setBehavior({ status: 503, times: 1 });
    const before = fake.requests.length;
    await expect(adapter.synthesize(input, { signal: new AbortController().signal })).rejects.toMatchObject({
      category: 'upstream_server_error', statusCode: 503, isRetryable: true,
    });
    const bytes = await collect((await adapter.synthesize(input, { signal: new AbortController().signal })).audio);
    expect(bytes.length).toBeGreaterThan(0);
    const sent = fake.requests.slice(before);
    expect(sent.map((request) => request.status)).toEqual([503, 200]);
    for (const request of sent) expect(String(request.headers.authorization)).toMatch(/^AWS4-HMAC-SHA256 Credential=/);
    expect(JSON.stringify(sent.map((request) => request.headers))).not.toContain(POLLY_FAKE_SECRET_ACCESS_KEY);
  });

  it('sends a session token signed, and a wrong secret is a non-retryable auth failure', async () => {
    const withToken = pollyProvider.create({ ...settings(), sessionToken: 'session-token-1' }, { attemptTimeoutMs: 2000, pools });
    await collect((await withToken.synthesize(input, { signal: new AbortController().signal })).audio);
    const recorded = fake.requests.at(-1)!;
    expect(recorded.headers['x-amz-security-token']).toBe('session-token-1');
    expect(String(recorded.headers.authorization)).toMatch(/SignedHeaders=[a-z0-9;-]*x-amz-security-token/);
    const wrong = pollyProvider.create({ ...settings(), secretAccessKey: 'wrong' }, { attemptTimeoutMs: 2000, pools });
    await expect(wrong.synthesize(input, { signal: new AbortController().signal })).rejects.toMatchObject({
      category: 'upstream_auth_failed', statusCode: 403, isRetryable: false,
    });
  });
});
