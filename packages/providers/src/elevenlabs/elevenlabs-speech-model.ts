// Pure mapping from the router's SpeechInput to ElevenLabs' streaming text-to-speech request.

import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions, type ProviderOptionRule } from '../shared/provider-options.js';
import { clampSpeed, encodePathSegment } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { ElevenLabsOutputFormat, ElevenLabsSpeechRequestBody, ElevenLabsVoiceSettings } from './elevenlabs-api-types.js';

const PROVIDER = 'elevenlabs';
/** ElevenLabs recommends 0.7 to 1.2 and rejects values outside it. */
export const ELEVENLABS_SPEED_RANGE = [0.7, 1.2] as const;

const OUTPUT_FORMATS: Record<SpeechInput['format'], ElevenLabsOutputFormat> = {
  mp3: 'mp3_24000_48',
  pcm: 'pcm_24000',
};

const VOICE_SETTING_OPTIONS = ['stability', 'similarity_boost', 'style', 'use_speaker_boost'] as const;
const QUERY_OPTIONS = ['enable_logging', 'optimize_streaming_latency'] as const;

export const elevenLabsProviderOptionRules: Record<string, ProviderOptionRule> = {
  stability: { kind: 'number', minimum: 0, maximum: 1 },
  similarity_boost: { kind: 'number', minimum: 0, maximum: 1 },
  style: { kind: 'number', minimum: 0, maximum: 1 },
  use_speaker_boost: { kind: 'boolean' },
  seed: { kind: 'integer', minimum: 0, maximum: 4_294_967_295 },
  language_code: { kind: 'string', maxLength: 16 },
  apply_text_normalization: { kind: 'string', allowed: ['auto', 'on', 'off'] },
  previous_text: { kind: 'string', maxLength: 5000 },
  next_text: { kind: 'string', maxLength: 5000 },
  previous_request_ids: { kind: 'string-array', maxItems: 3 },
  next_request_ids: { kind: 'string-array', maxItems: 3 },
  use_pvc_as_ivc: { kind: 'boolean' },
  enable_logging: { kind: 'boolean' },
  optimize_streaming_latency: { kind: 'integer', minimum: 0, maximum: 4 },
};

export function buildElevenLabsSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const voiceSegment = encodePathSegment(input.voice);
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, elevenLabsProviderOptionRules);

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
    if ((VOICE_SETTING_OPTIONS as readonly string[]).includes(name) || (QUERY_OPTIONS as readonly string[]).includes(name)) continue;
    (body as unknown as Record<string, unknown>)[name] = value;
  }
  if (body.language_code !== undefined && input.modelId === 'eleven_multilingual_v2') {
    delete body.language_code;
    warnings.push('provider option "language_code" ignored: not supported by eleven_multilingual_v2');
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by elevenlabs');

  const query = new URLSearchParams({ output_format: OUTPUT_FORMATS[input.format] });
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
