// Google's settings use the ecosystem's names: GOOGLE_API_KEY, or GOOGLE_APPLICATION_CREDENTIALS (the path of
// a service account key file, as Application Default Credentials read it), plus GOOGLE_BASE_URL.

import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { baseUrlSchema, type SettingsSpec } from '../settings/provider-settings.js';
import type { GoogleServiceAccountKey } from './google-api-types.js';

export interface GoogleSettings {
  apiKey?: string;
  credentialsFile?: string;
  baseUrl?: string;
}

export const GOOGLE_DEFAULT_BASE_URL = 'https://texttospeech.googleapis.com';

export const googleSettings = {
  apiKey: { env: 'GOOGLE_API_KEY', schema: z.string().optional(), description: 'API key (sent as x-goog-api-key); or use GOOGLE_APPLICATION_CREDENTIALS', secret: true },
  credentialsFile: {
    env: 'GOOGLE_APPLICATION_CREDENTIALS',
    schema: z.string().min(1).optional(),
    description: 'Path of a service account key file (JSON); used when GOOGLE_API_KEY is not set',
  },
  baseUrl: { env: 'GOOGLE_BASE_URL', schema: baseUrlSchema, description: `Base URL (bare origin, as the client library's apiEndpoint; default ${GOOGLE_DEFAULT_BASE_URL})` },
} satisfies SettingsSpec;

/** Reads and checks a service account key file. The error names the problem, never the file's content. */
export function readServiceAccountKey(path: string): GoogleServiceAccountKey {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new TypeError('google: GOOGLE_APPLICATION_CREDENTIALS is not a readable JSON file');
  }
  const key = parsed as Partial<GoogleServiceAccountKey> | null;
  if (typeof key !== 'object' || key === null || key.type !== 'service_account') {
    throw new TypeError('google: GOOGLE_APPLICATION_CREDENTIALS must be a service account key file (type "service_account")');
  }
  for (const field of ['client_email', 'private_key', 'token_uri'] as const) {
    if (typeof key[field] !== 'string' || key[field] === '') throw new TypeError(`google: the service account key file has no ${field}`);
  }
  const tokenUri = new URL(key.token_uri!);
  if (tokenUri.protocol !== 'https:' && tokenUri.protocol !== 'http:') throw new TypeError('google: the key file token_uri must be http(s)');
  return key as GoogleServiceAccountKey;
}
