// POST /v1/audio/speech: OpenAI's body shape, with `model` = `<provider>/<model_id>`.
import { z } from 'zod';

export const MAX_SPEECH_BODY_BYTES = 65_536;

export const AudioFormatSchema = z.enum(['mp3', 'pcm']);

export const SpeechRequestSchema = z
  .looseObject({
    model: z.string().min(1).max(200).describe('`<provider>/<model_id>`: the part before the first slash picks the provider; the rest is passed to it unchanged.'),
    input: z.string().min(1).describe('Text to speak. Charged per Unicode code point at the model\'s price.'),
    voice: z
      .union([z.string().min(1).max(200), z.object({ id: z.string().min(1).max(200) })])
      .describe('Provider-local voice id (or OpenAI\'s `{id}` object for custom voices).'),
    response_format: AudioFormatSchema.default('mp3').describe('`mp3` (audio/mpeg) or `pcm` (audio/l16: 16-bit little-endian, 24 kHz, mono, no header).'),
    speed: z.number().min(0.25).max(4).optional().describe('OpenAI-style speed; mapped where the provider supports it, else ignored with a warning.'),
    instructions: z.string().max(4096).optional().describe('OpenAI-style instructions; mapped where supported, else ignored with a warning.'),
    provider_options: z.record(z.string(), z.unknown()).optional().describe('Passed to the provider; accepted keys depend on the provider. Unknown keys are ignored with a warning.'),
  })
  .meta({
    id: 'SpeechRequest',
    description:
      'Fields OpenAI accepts that the router does not use (e.g. `stream_format`) are ignored and named in the `X-Router-Warnings` response header. ' +
      `Bodies over ${MAX_SPEECH_BODY_BYTES} bytes are refused with 400 invalid_body before they are read.`,
  });

export type SpeechRequest = z.infer<typeof SpeechRequestSchema>;

export const SPEECH_KNOWN_FIELDS = new Set(['model', 'input', 'voice', 'response_format', 'speed', 'instructions', 'provider_options']);

/** Response headers of a successful speech request. */
export const SPEECH_HEADERS = {
  provider: 'X-Router-Provider',
  costMicros: 'X-Router-Cost-Micros',
  warnings: 'X-Router-Warnings',
  requestId: 'X-Request-Id',
  /** On 503 provider_unavailable from an open or half-open circuit breaker: `open` or `half_open`. */
  breakerState: 'X-Router-Breaker-State',
} as const;

export type ParsedModel =
  | { ok: true; provider: string; modelId: string }
  | { ok: false; details: string };

/** `<provider>/<model_id>`: both parts non-empty; the model id may itself contain slashes. */
export function parseModel(model: string): ParsedModel {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) return { ok: false, details: 'model must be <provider>/<model_id>' };
  const provider = model.slice(0, slash);
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(provider)) return { ok: false, details: 'model must be <provider>/<model_id>' };
  return { ok: true, provider, modelId: model.slice(slash + 1) };
}

/** Billing counts Unicode code points, not UTF-16 units. */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index += 1;
    }
    count += 1;
  }
  return count;
}
