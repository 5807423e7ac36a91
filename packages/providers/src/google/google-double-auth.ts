// The double's OAuth side: a test service account (an RSA key pair made once per process) and the token
// endpoint's checks of a JWT bearer grant, as Google's https://oauth2.googleapis.com/token makes them.

import { createPublicKey, generateKeyPairSync, randomBytes, verify, type KeyObject } from 'node:crypto';
import type { GoogleServiceAccountKey } from './google-api-types.js';
import { GOOGLE_CLOUD_PLATFORM_SCOPE, JWT_BEARER_GRANT } from './google-auth.js';

export const GOOGLE_FAKE_CLIENT_EMAIL = 'voice-router-test@voice-router-test.iam.gserviceaccount.com';
/** The token URL Google's own client libraries put in `aud`, whatever the key file says. */
export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
const KEY_ID = 'f1e2d3c4b5a697881234567890abcdef12345678';

let keyPair: { privatePem: string; publicKey: KeyObject } | undefined;
function testKeyPair() {
  if (!keyPair) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    keyPair = { privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKey: createPublicKey(privateKey) };
  }
  return keyPair;
}

/** A service account key file for the double, in Google's format, with `token_uri` pointing at the double. */
export function googleFakeServiceAccount(tokenUri: string): GoogleServiceAccountKey & Record<string, string> {
  return {
    type: 'service_account',
    project_id: 'voice-router-test',
    private_key_id: KEY_ID,
    private_key: testKeyPair().privatePem,
    client_email: GOOGLE_FAKE_CLIENT_EMAIL,
    client_id: '100000000000000000001',
    auth_uri: 'https://accounts.google.com/o/oauth2/auth',
    token_uri: tokenUri,
    auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
    universe_domain: 'googleapis.com',
  };
}

/** Access tokens the double issued (bounded). */
const issued = new Set<string>();
export function isIssuedToken(token: string): boolean {
  return issued.has(token);
}

export type TokenGrantResult = { token: string; expiresIn: number } | { error: string; description: string };

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Checks a JWT bearer grant (form body) addressed to `ownTokenUrl`; issues a token when it holds. */
export function grantToken(form: URLSearchParams, ownTokenUrl: string, nowSeconds = Math.floor(Date.now() / 1000)): TokenGrantResult {
  if (form.get('grant_type') !== JWT_BEARER_GRANT) return { error: 'unsupported_grant_type', description: `Invalid grant_type: ${form.get('grant_type') ?? ''}` };
  const parts = (form.get('assertion') ?? '').split('.');
  if (parts.length !== 3) return { error: 'invalid_request', description: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' };
  const header = decodePart(parts[0]!);
  const claims = decodePart(parts[1]!);
  if (!header || !claims || header.alg !== 'RS256') return { error: 'invalid_grant', description: 'Invalid JWT Signature.' };
  const signed = verify('sha256', Buffer.from(`${parts[0]}.${parts[1]}`), testKeyPair().publicKey, Buffer.from(parts[2]!, 'base64url'));
  if (!signed) return { error: 'invalid_grant', description: 'Invalid JWT Signature.' };
  if (claims.iss !== GOOGLE_FAKE_CLIENT_EMAIL) return { error: 'invalid_grant', description: 'Invalid email or User ID' };
  if (claims.aud !== ownTokenUrl && claims.aud !== GOOGLE_TOKEN_URL) return { error: 'invalid_grant', description: 'Invalid JWT: Failed audience check.' };
  const iat = claims.iat;
  const exp = claims.exp;
  if (typeof iat !== 'number' || typeof exp !== 'number' || iat > nowSeconds + 60 || exp <= nowSeconds || exp - iat > 3600) {
    return { error: 'invalid_grant', description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.' };
  }
  const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
  if (!scopes.includes(GOOGLE_CLOUD_PLATFORM_SCOPE)) return { error: 'invalid_scope', description: 'Invalid OAuth scope or ID token audience provided.' };
  const token = `ya29.c.${randomBytes(24).toString('base64url')}`;
  if (issued.size > 1000) issued.clear();
  issued.add(token);
  return { token, expiresIn: 3599 };
}
