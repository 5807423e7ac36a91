// Resemble's settings, named after the official SDK's two hosts: setBaseUrl (management API) and
// setSynthesisUrl (synthesis server).

import { baseUrlSchema, type SettingsSpec } from '../settings/provider-settings.js';
import { z } from 'zod';

export const RESEMBLE_DEFAULT_BASE_URL = 'https://app.resemble.ai/api';
export const RESEMBLE_DEFAULT_SYNTHESIS_URL = 'https://f.cluster.resemble.ai';

export interface ResembleSettings {
  apiKey?: string;
  /** Management API (voices), with /api as the SDK's setBaseUrl; paths carry /v2. */
  baseUrl?: string;
  /** Synthesis server (POST /stream). */
  synthesisUrl?: string;
}

export const resembleSettings = {
  apiKey: { env: 'RESEMBLE_API_KEY', schema: z.string().optional(), description: 'API key; without it resemble is listed but unavailable', secret: true },
  baseUrl: {
    env: 'RESEMBLE_BASE_URL',
    schema: baseUrlSchema,
    description: `Management API base URL for the voice list (as the SDK setBaseUrl, includes /api; default ${RESEMBLE_DEFAULT_BASE_URL})`,
  },
  synthesisUrl: {
    env: 'RESEMBLE_SYNTHESIS_URL',
    schema: baseUrlSchema,
    description: `Synthesis server base URL (as the SDK setSynthesisUrl, bare origin; default ${RESEMBLE_DEFAULT_SYNTHESIS_URL})`,
  },
} satisfies SettingsSpec;
