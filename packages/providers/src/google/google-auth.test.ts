// Service account OAuth against the double's token endpoint: the signed assertion, caching until shortly
// before expiry, one shared exchange, refusals; then synthesis and voice listing through a key file.

import { createPrivateKey, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProviderError } from '../errors.js';
import { ConnectionPools } from '../http/connection-pools.js';
import { collect, rejectionOf } from '../__fixtures__/speech-helpers.js';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { GOOGLE_CLOUD_PLATFORM_SCOPE, ServiceAccountTokenSource, signServiceAccountAssertion, TOKEN_REFRESH_MARGIN_MS } from './google-auth.js';
import { googleFakeServiceAccount } from './google-double-auth.js';
import { googleProvider } from './index.js';

let fake: FakeProviderServer;
let directory: string;
beforeAll(async () => {
  fake = await startFakeProvider('google');
  directory = mkdtempSync(join(tmpdir(), 'google-sa-'));
});
afterAll(async () => {
  await fake.close();
  rmSync(directory, { recursive: true, force: true });
});

const tokenRequests = () => fake.requests.filter((request) => request.path === '/token').length;
const keyFile = () => googleFakeServiceAccount(`${fake.origin}/token`);

describe('signServiceAccountAssertion', () => {
  it('signs an RS256 JWT for the key file token_uri with the cloud-platform scope', () => {
    const key = keyFile();
    const assertion = signServiceAccountAssertion(key, createPrivateKey(key.private_key), 1_700_000_000);
    const [header, claims, signature] = assertion.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: key.private_key_id });
    expect(JSON.parse(Buffer.from(claims!, 'base64url').toString())).toEqual({
      iss: key.client_email, scope: GOOGLE_CLOUD_PLATFORM_SCOPE, aud: `${fake.origin}/token`, iat: 1_700_000_000, exp: 1_700_003_600,
    });
    expect(verify('sha256', Buffer.from(`${header}.${claims}`), createPublicKey(key.private_key), Buffer.from(signature!, 'base64url'))).toBe(true);
  });
});

describe('ServiceAccountTokenSource', () => {
  it('exchanges the assertion at token_uri, then reuses the token', async () => {
    const source = new ServiceAccountTokenSource(keyFile());
    const before = tokenRequests();
    const token = await source.accessToken();
    expect(token).toMatch(/^ya29\.c\./);
    expect(await source.accessToken()).toBe(token);
    expect(tokenRequests() - before).toBe(1);
    const recorded = fake.requests.filter((request) => request.path === '/token').at(-1)!;
    expect(recorded.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(String(recorded.body)).get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
  });

  it('shares one exchange between concurrent callers', async () => {
    const source = new ServiceAccountTokenSource(keyFile());
    const before = tokenRequests();
    const tokens = await Promise.all([source.accessToken(), source.accessToken(), source.accessToken()]);
    expect(new Set(tokens).size).toBe(1);
    expect(tokenRequests() - before).toBe(1);
  });

  it('renews the token shortly before it expires', async () => {
    const realNow = Date.now();
    let now = realNow - 3540_000;
    const source = new ServiceAccountTokenSource(keyFile(), () => now);
    const first = await source.accessToken();
    now += 3599_000 - TOKEN_REFRESH_MARGIN_MS - 1000; // still a second outside the margin
    expect(await source.accessToken()).toBe(first);
    now += 2000; // inside the margin
    const second = await source.accessToken();
    expect(second).not.toBe(first);
  });

  it('reports a key the token endpoint does not accept as an auth failure, with nothing of the answer', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = { ...keyFile(), private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    const error = await rejectionOf(new ServiceAccountTokenSource(forged).accessToken());
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ provider: 'google', category: 'upstream_auth_failed', statusCode: 400, isRetryable: false });
    expect((error as Error).message).not.toContain('Invalid JWT');
  });

  it('reports an unreachable token endpoint as a retryable network error', async () => {
    const error = await rejectionOf(new ServiceAccountTokenSource({ ...keyFile(), token_uri: 'http://127.0.0.1:9/token' }).accessToken());
    expect(error).toMatchObject({ category: 'upstream_network_error', isRetryable: true });
  });

  it('refuses a key file whose private_key is not a PEM key', () => {
    expect(() => new ServiceAccountTokenSource({ ...keyFile(), private_key: 'nope' })).toThrow(/not a PEM private key/);
  });
});

describe('google with GOOGLE_APPLICATION_CREDENTIALS', () => {
  const writeKeyFile = (name: string, content: unknown) => {
    const path = join(directory, name);
    writeFileSync(path, JSON.stringify(content));
    return path;
  };

  it('is configured by a key file alone and synthesizes with a Bearer token', async () => {
    const credentialsFile = writeKeyFile('service-account.json', keyFile());
    expect(googleProvider.isConfigured({ credentialsFile })).toBe(true);
    const pools = new ConnectionPools();
    try {
      const adapter = googleProvider.create({ credentialsFile, baseUrl: fake.baseUrl }, { attemptTimeoutMs: 2000, pools });
      for (const format of ['pcm', 'mp3'] as const) {
        const result = await adapter.synthesize(
          { modelId: 'neural2', voice: 'en-US-Neural2-F', text: 'Hello with a service account.', format, providerOptions: {} },
          { signal: AbortSignal.timeout(5000) },
        );
        const bytes = await collect(result.audio);
        expect(bytes.length).toBeGreaterThan(1000);
        const recorded = fake.requests.at(-1)!;
        expect(recorded.path).toBe('/v1/text:synthesize');
        expect(String(recorded.headers.authorization)).toMatch(/^Bearer ya29\.c\./);
        expect(recorded.headers['x-goog-api-key']).toBeUndefined();
      }
      const voices = await googleProvider.listVoices!({ credentialsFile, baseUrl: fake.baseUrl }, { signal: AbortSignal.timeout(5000) });
      expect(voices.map((voice) => voice.id)).toContain('en-US-Chirp3-HD-Charon');
    } finally {
      await pools.close();
    }
  });

  it('refuses a key file that is not a service account key, without quoting it', () => {
    const path = writeKeyFile('user.json', { type: 'authorized_user', client_secret: 'secret-value' });
    const create = () => googleProvider.create({ credentialsFile: path }, { attemptTimeoutMs: 2000, pools: new ConnectionPools() });
    expect(create).toThrow(/service account key file/);
    expect(create).not.toThrow(/secret-value/);
    expect(() => googleProvider.create({ credentialsFile: join(directory, 'missing.json') }, { attemptTimeoutMs: 2000, pools: new ConnectionPools() })).toThrow(
      /not a readable JSON file/,
    );
  });
});
