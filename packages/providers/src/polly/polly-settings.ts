// Polly's settings are the AWS SDK's own environment variables: credentials, region and the per-service endpoint.

import { z } from 'zod';
import { baseUrlSchema, type SettingsOf, type SettingsSpec } from '../settings/provider-settings.js';

export const pollySettings = {
  accessKeyId: { env: 'AWS_ACCESS_KEY_ID', schema: z.string().optional(), description: 'AWS access key id; without it (and the secret and region) polly is listed but unavailable', secret: true },
  secretAccessKey: { env: 'AWS_SECRET_ACCESS_KEY', schema: z.string().optional(), description: 'AWS secret access key (signs requests; never sent)', secret: true },
  sessionToken: { env: 'AWS_SESSION_TOKEN', schema: z.string().optional(), description: 'AWS session token, for temporary credentials', secret: true },
  region: {
    env: 'AWS_REGION',
    schema: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)+$/, 'an AWS region such as us-east-1').optional(),
    description: 'AWS region (e.g. us-east-1); picks the endpoint and the signing scope',
  },
  endpoint: {
    env: 'AWS_ENDPOINT_URL_POLLY',
    schema: baseUrlSchema,
    description: 'Polly endpoint, as the AWS SDK takes it (default https://polly.<region>.amazonaws.com)',
  },
} satisfies SettingsSpec;

export type PollySettings = Partial<SettingsOf<typeof pollySettings>>;

/** The endpoint the AWS SDK uses for a region (standard partition; other partitions set AWS_ENDPOINT_URL_POLLY). */
export function pollyDefaultEndpoint(region: string): string {
  return `https://polly.${region}.amazonaws.com`;
}
