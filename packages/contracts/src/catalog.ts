// Providers, voices and status: the catalog a client browses before it speaks.
import { z } from 'zod';
import { AudioFormatSchema } from './speech.js';

export const PricingSchema = z
  .object({ unit: z.literal('character'), microsPerUnit: z.number().nonnegative() })
  .meta({ id: 'Pricing', description: 'cost = ceil(code points of input × microsPerUnit), in integer micro-dollars.' });

export const ModelSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    response_formats: z.array(AudioFormatSchema),
    pricing: PricingSchema,
    maxInputCharacters: z.int().describe('Longer input is refused with 400 invalid_body before anything is charged.'),
  })
  .meta({ id: 'Model' });

export const ProviderOptionSchema = z
  .object({
    name: z.string(),
    type: z.string().describe('JSON type: number, integer, boolean, string, array<string>...'),
    description: z.string().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    enum: z.array(z.union([z.string(), z.number()])).optional(),
    maxLength: z.int().optional(),
    maxItems: z.int().optional(),
  })
  .meta({
    id: 'ProviderOption',
    description: 'A provider_options key this provider accepts. Any other key, or a value outside these bounds, is refused with 400 invalid_body naming the key.',
  });

export const ProviderSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    website: z.string(),
    models: z.array(ModelSchema),
    provider_options: z.array(ProviderOptionSchema),
    mp3_quality: z.string().describe('What response_format mp3 asks this provider for, e.g. mp3_44100_128.'),
    capabilities: z.object({
      supportedFormats: z.array(AudioFormatSchema),
      unwiredCapabilities: z.array(z.string()),
      quirks: z.array(z.string()),
      lastSmokeTest: z
        .string()
        .describe('ISO 8601 time of the last successful smoke synthesis against the real provider, or "never" (scheduled with SMOKE_TEST_INTERVAL_MS, or `npm run admin -- smoke-test`).'),
    }),
  })
  .meta({ id: 'Provider' });

export const ProvidersResponseSchema = z.object({ providers: z.array(ProviderSchema) }).meta({ id: 'Providers' });

export const VoiceSchema = z
  .object({
    id: z.string(),
    provider: z.string(),
    name: z.string(),
    language: z.string().describe('Canonical BCP 47 tag (`en-US`, `de`); `und` when the provider gives none.'),
    labels: z
      .record(z.string(), z.string())
      .describe('Free-form string labels; `gender` is `female`, `male` or `neutral` across providers; `owner: account` marks the account\'s own voices.'),
    preview_url: z.string().optional().describe('The provider\'s preview audio, where it has one (absent otherwise).'),
    model_compatibility: z.array(z.string()),
  })
  .meta({
    id: 'Voice',
    description: 'Listed live from each configured provider\'s voice API (paged to the end, refreshed in the background); fixed lists for providers without one.',
  });

export const VoicesQuerySchema = z.object({
  provider: z.string().optional().describe('Comma-separated provider ids.'),
  language: z.string().optional().describe('ISO prefix, case-insensitive: `en` matches `en-US`.'),
  gender: z.string().optional().describe('Exact `gender` label, case-insensitive.'),
});

export const VoicesResponseSchema = z.object({ voices: z.array(VoiceSchema) }).meta({ id: 'Voices' });

export const PROVIDER_STATUS_REASONS = ['missing_api_key', 'circuit_open', 'circuit_half_open'] as const;

export const ProviderStatusSchema = z
  .object({
    id: z.string(),
    state: z.enum(['available', 'degraded', 'unavailable']),
    reason: z
      .enum(PROVIDER_STATUS_REASONS)
      .optional()
      .describe(
        '`missing_api_key` (unavailable: no key configured), `circuit_open` (unavailable: the circuit breaker opened after consecutive upstream failures), ' +
          '`circuit_half_open` (degraded: the cooldown is over and one probe request decides whether it closes).',
      ),
  })
  .meta({
    id: 'ProviderStatus',
    description: 'Circuit-breaker states are per process: each data-plane replica keeps its own breakers and reports its own view.',
  });

export const StatusResponseSchema = z.object({ providers: z.array(ProviderStatusSchema) }).meta({ id: 'Status' });

export type ProvidersResponse = z.infer<typeof ProvidersResponseSchema>;
export type VoicesResponse = z.infer<typeof VoicesResponseSchema>;
export type StatusResponse = z.infer<typeof StatusResponseSchema>;
