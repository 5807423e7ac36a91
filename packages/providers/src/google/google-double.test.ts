// The Google double: API key and token auth, request validation, the JSON-wrapped audio and its framing,
// voices with named or numeric enums, and the token endpoint's checks.

import { createPrivateKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeProvider } from '../testing/start-fake-provider.js';
import type { FakeProviderServer } from '../testing/types.js';
import { probeAudio, startsWithMp3FrameSync } from '../__fixtures__/http.js';
import { signServiceAccountAssertion } from './google-auth.js';
import { googleFakeServiceAccount, GOOGLE_TOKEN_URL } from './google-double-auth.js';

let fake: FakeProviderServer;
beforeAll(async () => {
  fake = await startFakeProvider('google');
});
afterAll(() => fake.close());

const request = {
  input: { text: 'Hello from the fake.' },
  voice: { languageCode: 'en-US', name: 'en-US-Neural2-F' },
  audioConfig: { audioEncoding: 'MP3', sampleRateHertz: 24000 },
};

async function synthesize(body: unknown, headers: Record<string, string> = { 'x-goog-api-key': fake.apiKey }, query = '') {
  const response = await fetch(`${fake.baseUrl}/v1/text:synthesize${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, contentType: response.headers.get('content-type'), text, json: () => JSON.parse(text) as Record<string, any> };
}

async function token(form: Record<string, string>) {
  const response = await fetch(`${fake.origin}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('google double: synthesize', () => {
  it('answers a pretty-printed JSON object whose audioContent is base64 MP3', async () => {
    const result = await synthesize(request);
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('application/json; charset=UTF-8');
    expect(result.text.startsWith('{\n  "audioContent": "')).toBe(true);
    const bytes = Buffer.from(result.json().audioContent as string, 'base64');
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeAudio(bytes);
    if (probe) expect(probe).toMatchObject({ codec: 'mp3', sampleRate: 24000, channels: 1 });
  });

  it('answers compact JSON with $prettyPrint=0 and takes the key as ?key=', async () => {
    const result = await synthesize(request, {}, `?$prettyPrint=0&key=${fake.apiKey}`);
    expect(result.status).toBe(200);
    expect(result.text.startsWith('{"audioContent":"')).toBe(true);
    expect(result.text.endsWith('"}')).toBe(true);
  });

  it('answers LINEAR16 as a WAV clip of whole samples, with numeric enums too', async () => {
    const result = await synthesize({ ...request, audioConfig: { audioEncoding: 1, sampleRateHertz: 24000 } });
    const bytes = Buffer.from(result.json().audioContent as string, 'base64');
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.readUInt32LE(24)).toBe(24000);
    expect((bytes.length - 44) % 2).toBe(0);
  });

  it('answers a wrong API key with 400 API_KEY_INVALID, and no credentials with 401', async () => {
    const wrong = await synthesize(request, { 'x-goog-api-key': 'wrong' });
    expect(wrong.status).toBe(400);
    expect(wrong.json().error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT', details: [{ reason: 'API_KEY_INVALID' }] });
    expect(wrong.text).toContain(fake.leakMarker);
    const none = await synthesize(request, {});
    expect(none.status).toBe(401);
    expect(none.json().error).toMatchObject({ status: 'UNAUTHENTICATED' });
    expect((await synthesize(request, { authorization: 'Bearer ya29.not-issued' })).status).toBe(401);
  });

  it.each([
    ['no input', { ...request, input: {} }],
    ['text and ssml', { ...request, input: { text: 'a', ssml: '<speak>a</speak>' } }],
    ['over 5000 bytes', { ...request, input: { text: 'é'.repeat(2501) } }],
    ['no languageCode', { ...request, voice: { name: 'en-US-Neural2-F' } }],
    ['an unknown voice', { ...request, voice: { languageCode: 'en-US', name: 'en-US-Neural2-Z' } }],
    ['a language the voice does not speak', { ...request, voice: { languageCode: 'de-DE', name: 'en-US-Neural2-F' } }],
    ['no encoding', { ...request, audioConfig: {} }],
    ['speakingRate 5', { ...request, audioConfig: { audioEncoding: 'MP3', speakingRate: 5 } }],
    ['pitch 30', { ...request, audioConfig: { audioEncoding: 'MP3', pitch: 30 } }],
  ])('answers 400 INVALID_ARGUMENT to %s', async (_case, body) => {
    const result = await synthesize(body);
    expect(result.status).toBe(400);
    expect(result.json().error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
  });
});

describe('google double: voices', () => {
  it('lists voices with named enums, or numbers when enum-encoding=int is asked', async () => {
    const url = `${fake.baseUrl}/v1/voices`;
    expect((await fetch(url)).status).toBe(401);
    const named = (await (await fetch(`${url}?languageCode=en-GB`, { headers: { 'x-goog-api-key': fake.apiKey } })).json()) as { voices: Array<Record<string, unknown>> };
    expect(named.voices).toEqual([{ languageCodes: ['en-GB'], name: 'en-GB-Neural2-B', ssmlGender: 'MALE', naturalSampleRateHertz: 24000 }]);
    const numeric = (await (await fetch(`${url}?$alt=json%3Benum-encoding=int&languageCode=en-GB`, { headers: { 'x-goog-api-key': fake.apiKey } })).json()) as typeof named;
    expect(numeric.voices[0]!.ssmlGender).toBe(1);
  });
});

describe('google double: token endpoint', () => {
  const key = () => googleFakeServiceAccount(`${fake.origin}/token`);
  const grant = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  it('issues a token for an assertion signed by the test key, addressed to it or to Google', async () => {
    for (const audience of [`${fake.origin}/token`, GOOGLE_TOKEN_URL]) {
      const assertion = signServiceAccountAssertion({ ...key(), token_uri: audience }, createPrivateKey(key().private_key), nowSeconds());
      const result = await token({ grant_type: grant, assertion });
      expect(result.status).toBe(200);
      expect(result.body).toMatchObject({ token_type: 'Bearer', expires_in: 3599 });
      expect((await synthesize(request, { authorization: `Bearer ${String(result.body.access_token)}` })).status).toBe(200);
    }
  });

  it('refuses another grant type, another audience, an expired or tampered assertion', async () => {
    const sign = (overrides: Record<string, unknown>, at = nowSeconds()) => signServiceAccountAssertion({ ...key(), ...overrides } as never, createPrivateKey(key().private_key), at);
    expect((await token({ grant_type: 'client_credentials', assertion: sign({}) })).body).toMatchObject({ error: 'unsupported_grant_type' });
    expect((await token({ grant_type: grant, assertion: sign({ token_uri: 'https://elsewhere.example/token' }) })).body).toMatchObject({ error: 'invalid_grant' });
    expect((await token({ grant_type: grant, assertion: sign({}, nowSeconds() - 7200) })).body).toMatchObject({ error: 'invalid_grant' });
    const [header, , signature] = sign({}).split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ iss: key().client_email, aud: `${fake.origin}/token`, scope: 'x', iat: nowSeconds(), exp: nowSeconds() + 60 })).toString('base64url');
    const tampered = await token({ grant_type: grant, assertion: `${header}.${forgedClaims}.${signature}` });
    expect(tampered).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } });
  });
});
