// Azure's settings use the Speech ecosystem's names: AZURE_SPEECH_KEY and AZURE_SPEECH_REGION, as the Speech
// SDK samples read them, plus AZURE_BASE_URL for a custom host (private endpoint, proxy, double).

import { z } from 'zod';
import { baseUrlSchema, type SettingsSpec } from '../settings/provider-settings.js';

export interface AzureSettings {
  apiKey?: string;
  region?: string;
  baseUrl?: string;
}

/** Region names are lower-case letters and digits (`eastus`, `westeurope`); nothing else may enter a host name. */
const regionSchema = z.string().regex(/^[a-z0-9]{2,40}$/, 'an Azure region name such as eastus').optional();

export const azureSettings = {
  apiKey: { env: 'AZURE_SPEECH_KEY', schema: z.string().optional(), description: 'Speech resource key; without it azure is listed but unavailable', secret: true },
  region: { env: 'AZURE_SPEECH_REGION', schema: regionSchema, description: 'Speech resource region (e.g. eastus); gives https://<region>.tts.speech.microsoft.com' },
  baseUrl: {
    env: 'AZURE_BASE_URL',
    schema: baseUrlSchema,
    description: 'Base URL overriding the region-derived origin (bare origin, as the Speech SDK host: https://<region>.tts.speech.microsoft.com)',
  },
} satisfies SettingsSpec;

/** AZURE_BASE_URL when set, else the region's TTS origin. */
export function azureOrigin(settings: AzureSettings): string {
  if (settings.baseUrl) return settings.baseUrl;
  if (!settings.region) throw new TypeError('azure: AZURE_SPEECH_REGION or AZURE_BASE_URL is required');
  return `https://${settings.region}.tts.speech.microsoft.com`;
}
