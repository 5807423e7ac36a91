// Which server, organization and credentials a run uses: flags beat the environment, which beats the
// config file, which beats the defaults. Pure, so the precedence is tested without a process.
import type { CliConfig } from './config.js';
import { UsageError } from './cli-errors.js';

export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';

export interface SettingFlags {
  baseUrl?: string;
  org?: string;
  apiKey?: string;
}

export interface Settings {
  baseUrl: string;
  organization?: string;
  /** --org as typed on this run: `vr login --org …` remembers it. */
  organizationFromFlag?: string;
  sessionToken?: string;
  apiKey?: string;
  /** A key from --api-key or VR_API_KEY was asked for on this run, so it wins over a stored session. */
  apiKeyExplicit: boolean;
}

/** Accepts what people paste, including an OpenAI-style base URL ending in /v1. */
export function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`"${value}" is not a URL (expected something like ${DEFAULT_BASE_URL})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`"${value}" is not an http(s) URL`);
  return url.toString().replace(/\/+$/, '').replace(/\/v1$/, '');
}

export function resolveSettings(flags: SettingFlags, env: Record<string, string | undefined>, config: CliConfig): Settings {
  const baseUrl = normalizeBaseUrl(flags.baseUrl || env.VR_BASE_URL || config.baseUrl || DEFAULT_BASE_URL);
  const organization = flags.org || env.VR_ORGANIZATION || config.organization || undefined;
  const explicitKey = flags.apiKey || env.VR_API_KEY || undefined;
  return {
    baseUrl,
    organization,
    organizationFromFlag: flags.org || undefined,
    sessionToken: config.sessionToken,
    apiKey: explicitKey ?? config.apiKey,
    apiKeyExplicit: explicitKey !== undefined,
  };
}
