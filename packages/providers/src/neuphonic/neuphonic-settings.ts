// Neuphonic's settings. Its SDKs read NEUPHONIC_BASE_URL as a host (`api.neuphonic.com`) and add https
// themselves; the router takes that shape, or a full http(s) URL (proxies, the double).

import { z } from 'zod';
import type { SettingsSpec } from '../settings/provider-settings.js';

export const NEUPHONIC_DEFAULT_HOST = 'api.neuphonic.com';

/** A host with an optional port and path, as the SDKs take it. */
const HOST = /^[a-z0-9.-]+(:\d{1,5})?(\/[^\s?#]*)?$/i;

const baseUrlSchema = z
  .string()
  .refine((value) => {
    if (/^https?:\/\//i.test(value)) return URL.canParse(value);
    return HOST.test(value) && URL.canParse(`https://${value}`);
  }, 'a host such as api.neuphonic.com, or an http(s) URL')
  .optional();

export interface NeuphonicSettings {
  apiKey?: string;
  baseUrl?: string;
}

export const neuphonicSettings = {
  apiKey: { env: 'NEUPHONIC_API_KEY', schema: z.string().optional(), description: 'API key; without it neuphonic is listed but unavailable', secret: true },
  baseUrl: {
    env: 'NEUPHONIC_BASE_URL',
    schema: baseUrlSchema,
    description: `Host as the Neuphonic SDKs take it (https implied; default ${NEUPHONIC_DEFAULT_HOST}) or a full http(s) URL`,
  },
} satisfies SettingsSpec;

/** The SDK shape (a bare host) becomes an https URL; a full URL is kept. */
export function neuphonicBaseUrl(value: string | undefined): string {
  const base = value ?? NEUPHONIC_DEFAULT_HOST;
  return /^https?:\/\//i.test(base) ? base : `https://${base}`;
}
