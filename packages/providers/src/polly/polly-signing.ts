// AWS Signature V4 for Polly requests, with the AWS SDK's own signer (@smithy/signature-v4 + @aws-crypto/sha256-js).

import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import type { HttpProviderCredentials, SignableHttpRequest } from '../http/http-speech-adapter.js';
import type { PollySettings } from './polly-settings.js';

export const POLLY_SIGNING_SERVICE = 'polly';

type SignerRequest = Parameters<SignatureV4['sign']>[0];

/** The request as the signer takes it; `host` is the URL's host (with its port), as the HTTP client sends it. */
export function toSignerRequest(request: SignableHttpRequest): SignerRequest {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(request.url.searchParams.keys())) {
    const values = request.url.searchParams.getAll(name);
    query[name] = values.length === 1 ? values[0]! : values;
  }
  return {
    method: request.method,
    protocol: request.url.protocol,
    hostname: request.url.hostname,
    port: request.url.port ? Number(request.url.port) : undefined,
    path: decodeURIComponent(request.url.pathname),
    query,
    headers: { ...request.headers, host: request.url.host },
    body: request.body === '' ? undefined : request.body,
  } as SignerRequest;
}

export interface PollySigningKeys {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  region: string;
}

/** Signs one request; returns the headers to send (`host` left to the HTTP client, which sends the same value). */
export async function signPollyRequest(request: SignableHttpRequest, keys: PollySigningKeys, signingDate?: Date): Promise<Record<string, string>> {
  const signer = new SignatureV4({
    service: POLLY_SIGNING_SERVICE,
    region: keys.region,
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey, sessionToken: keys.sessionToken },
    sha256: Sha256,
  });
  const signed = await signer.sign(toSignerRequest(request), signingDate ? { signingDate } : undefined);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(signed.headers)) if (name.toLowerCase() !== 'host') headers[name] = String(value);
  return headers;
}

/** The adapter's signing hook: the keys come from the module's settings. */
export function signWithSettings(request: SignableHttpRequest, credentials: HttpProviderCredentials): Promise<Record<string, string>> {
  const settings = credentials.settings as PollySettings;
  return signPollyRequest(request, {
    accessKeyId: credentials.apiKey,
    secretAccessKey: settings.secretAccessKey ?? '',
    sessionToken: settings.sessionToken || undefined,
    region: settings.region ?? '',
  });
}
