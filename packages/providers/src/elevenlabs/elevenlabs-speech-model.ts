// Pure mapping from the router's SpeechInput to ElevenLabs' streaming text-to-speech request.

import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { z } from 'zod';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed, encodePathSegment } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { ElevenLabsOutputFormat, ElevenLabsSpeechRequestBody, ElevenLabsVoiceSettings } from './elevenlabs-api-types.js';

const PROVIDER = 'elevenlabs';
/** ElevenLabs recommends 0.7 to 1.2 and rejects values outside it. */
export const ELEVENLABS_SPEED_RANGE = [0.7, 1.2] as const;

/** ElevenLabs' own default and standard MP3 quality (44.1 kHz, 128 kbps); `output_format` picks another. */
export const ELEVENLABS_DEFAULT_MP3_FORMAT = 'mp3_44100_128';
/** MP3 formats ElevenLabs offers (mp3_44100_192 needs a Creator plan or higher). */
export const ELEVENLABS_MP3_FORMATS = ['mp3_22050_32', 'mp3_24000_48', 'mp3_44100_32', 'mp3_44100_64', 'mp3_44100_96', 'mp3_44100_128', 'mp3_44100_192'] as const;
/** The router's pcm is fixed: s16le, 24 kHz, mono. */
const PCM_FORMAT: ElevenLabsOutputFormat = 'pcm_24000';

const VOICE_SETTING_OPTIONS = ['stability', 'similarity_boost', 'style', 'use_speaker_boost'] as const;
const QUERY_OPTIONS = ['enable_logging', 'optimize_streaming_latency'] as const;
/** Options that choose the output rather than go into the body. */
const OUTPUT_OPTIONS = ['output_format'] as const;

const unit = z.number().min(0).max(1);
const requestIds = z.array(z.string().max(128)).max(3);

export const elevenLabsProviderOptions = z.object({
  stability: unit.optional().describe('voice_settings.stability'),
  similarity_boost: unit.optional().describe('voice_settings.similarity_boost'),
  style: unit.optional().describe('voice_settings.style'),
  use_speaker_boost: z.boolean().optional().describe('voice_settings.use_speaker_boost'),
  seed: z.int().min(0).max(4_294_967_295).optional(),
  language_code: z.string().max(16).optional().describe('ISO 639-1 language to enforce (not on eleven_multilingual_v2)'),
  apply_text_normalization: z.enum(['auto', 'on', 'off']).optional(),
  previous_text: z.string().max(5000).optional(),
  next_text: z.string().max(5000).optional(),
  previous_request_ids: requestIds.optional(),
  next_request_ids: requestIds.optional(),
  use_pvc_as_ivc: z.boolean().optional(),
  enable_logging: z.boolean().optional().describe('query parameter; false = zero retention (enterprise)'),
  optimize_streaming_latency: z.int().min(0).max(4).optional().describe('query parameter'),
  output_format: z
    .enum(ELEVENLABS_MP3_FORMATS)
    .optional()
    .describe(`MP3 quality for response_format mp3 (default ${ELEVENLABS_DEFAULT_MP3_FORMAT}); ignored for pcm, which is always pcm_24000`),
});

export function buildElevenLabsSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const voiceSegment = encodePathSegment(input.voice);
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, elevenLabsProviderOptions);

  const voiceSettings: ElevenLabsVoiceSettings = {};
  for (const name of VOICE_SETTING_OPTIONS) {
    if (values[name] !== undefined) (voiceSettings as Record<string, unknown>)[name] = values[name];
  }
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...ELEVENLABS_SPEED_RANGE);
    voiceSettings.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }

  const body: ElevenLabsSpeechRequestBody = { text: input.text, model_id: input.modelId };
  if (Object.keys(voiceSettings).length > 0) body.voice_settings = voiceSettings;
  for (const [name, value] of Object.entries(values)) {
    if ([...VOICE_SETTING_OPTIONS, ...QUERY_OPTIONS, ...OUTPUT_OPTIONS].includes(name as never)) continue;
    (body as unknown as Record<string, unknown>)[name] = value;
  }
  if (body.language_code !== undefined && input.modelId === 'eleven_multilingual_v2') {
    delete body.language_code;
    warnings.push('provider option "language_code" ignored: not supported by eleven_multilingual_v2');
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by elevenlabs');

  let outputFormat: ElevenLabsOutputFormat = PCM_FORMAT;
  if (input.format === 'mp3') outputFormat = (values.output_format as ElevenLabsOutputFormat | undefined) ?? ELEVENLABS_DEFAULT_MP3_FORMAT;
  else if (values.output_format !== undefined) warnings.push('provider option "output_format" ignored: pcm is always pcm_24000');
  const query = new URLSearchParams({ output_format: outputFormat });
  for (const name of QUERY_OPTIONS) {
    if (values[name] !== undefined) query.set(name, String(values[name]));
  }
  return {
    method: 'POST',
    path: `/v1/text-to-speech/${voiceSegment}/stream?${query.toString()}`,
    headers: { 'xi-api-key': credentials.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
  };
}
