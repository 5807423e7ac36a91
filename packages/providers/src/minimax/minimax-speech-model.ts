// Pure mapping from the router's SpeechInput to MiniMax's POST /v1/t2a_v2 streaming request (SSE, hex audio).

import type { OutputDescription } from '@voice-router/audio';
import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { MiniMaxSpeechRequestBody } from './minimax-api-types.js';

const PROVIDER = 'minimax';
export const MINIMAX_SPEED_RANGE = [0.5, 2] as const;
export const MINIMAX_SAMPLE_RATE = 24_000;
export const MINIMAX_MP3_BIT_RATE = 128_000;

/** Each SSE event's data is JSON with hex audio at data.audio; base_resp.status_code is 0 unless it failed. */
const SSE = { kind: 'sse', audioField: 'data.audio', encoding: 'hex', errorField: 'base_resp.status_code' } as const;
const MP3_OUTPUT: OutputDescription = { framing: SSE, container: 'mp3' };
const PCM_OUTPUT: OutputDescription = { framing: SSE, container: 'raw', encoding: 's16le', sampleRate: MINIMAX_SAMPLE_RATE, channels: 1 };

const EMOTIONS = ['happy', 'sad', 'angry', 'fearful', 'disgusted', 'surprised', 'calm', 'fluent', 'whisper'] as const;

export const miniMaxProviderOptions = z.strictObject({
  emotion: z.enum(EMOTIONS).optional().describe('Emotion of the speech (MiniMax picks one when absent)'),
  vol: z.number().gt(0).max(10).optional().describe('Volume, above 0 up to 10 (MiniMax default 1)'),
  pitch: z.number().int().min(-12).max(12).optional().describe('Pitch in semitones, -12 to 12'),
  language_boost: z.string().min(2).max(40).optional().describe('Language hint such as English, Chinese or auto'),
});

export type MiniMaxProviderOptions = z.infer<typeof miniMaxProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): MiniMaxProviderOptions {
  return readProviderOptions(PROVIDER, options ?? {}, miniMaxProviderOptions).values as MiniMaxProviderOptions;
}

export function buildMiniMaxSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  const warnings: string[] = [];
  const isMp3 = input.format === 'mp3';
  const body: MiniMaxSpeechRequestBody = {
    model: input.modelId,
    text: input.text,
    stream: true,
    stream_options: { exclude_aggregated_audio: true },
    voice_setting: { voice_id: input.voice },
    audio_setting: isMp3
      ? { sample_rate: MINIMAX_SAMPLE_RATE, bitrate: MINIMAX_MP3_BIT_RATE, format: 'mp3', channel: 1 }
      : { sample_rate: MINIMAX_SAMPLE_RATE, format: 'pcm', channel: 1 },
    output_format: 'hex',
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...MINIMAX_SPEED_RANGE);
    body.voice_setting.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by minimax (provider_options.emotion sets an emotion)');
  if (options.emotion !== undefined) body.voice_setting.emotion = options.emotion;
  if (options.vol !== undefined) body.voice_setting.vol = options.vol;
  if (options.pitch !== undefined) body.voice_setting.pitch = options.pitch;
  if (options.language_boost !== undefined) body.language_boost = options.language_boost;
  return {
    method: 'POST',
    path: '/v1/t2a_v2',
    headers: { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
    warnings,
    output: isMp3 ? MP3_OUTPUT : PCM_OUTPUT,
    // MiniMax reports failures as HTTP 200 JSON with base_resp: never a success.
    successJsonIsError: true,
  };
}
