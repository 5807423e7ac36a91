// Pure mapping from the router's SpeechInput to Hume's POST /v0/tts/stream/file request.

import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { clampSpeed } from '../shared/speech-checks.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import { HUME_MODEL_VERSIONS, type HumePostedUtterance, type HumeSpeechRequestBody } from './hume-api-types.js';

const PROVIDER = 'hume';
export const HUME_SPEED_RANGE = [0.5, 2] as const;
/** Hume streams 48 kHz 16-bit mono whatever the container. */
export const HUME_SAMPLE_RATE = 48_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const humeProviderOptions = z.strictObject({
  voice_provider: z.enum(['HUME_AI', 'CUSTOM_VOICE']).optional().describe('Where the voice lives: the Hume library (default) or your own voices'),
  trailing_silence: z.number().min(0).max(5).optional().describe('Seconds of silence added after the speech'),
  instant_mode: z.boolean().optional().describe('Lower latency at some cost in quality (Hume default: on)'),
});

export type HumeProviderOptions = z.infer<typeof humeProviderOptions>;

/** The registry validates provider_options with the same schema before this runs; direct callers get the same check. */
function readOptions(options: SpeechInput['providerOptions']): HumeProviderOptions {
  return readProviderOptions('hume', options ?? {}, humeProviderOptions).values as HumeProviderOptions;
}

export function buildHumeSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const options = readOptions(input.providerOptions);
  const version = Object.hasOwn(HUME_MODEL_VERSIONS, input.modelId) ? HUME_MODEL_VERSIONS[input.modelId] : undefined;
  if (version === undefined) throw new InvalidSpeechRequestError(`model ${quoteName(input.modelId)} is not an Octave version (octave-1, octave-2)`);
  const warnings: string[] = [];
  const provider = options.voice_provider ?? 'HUME_AI';
  const utterance: HumePostedUtterance = {
    text: input.text,
    voice: UUID.test(input.voice) ? { id: input.voice, provider } : { name: input.voice, provider },
  };
  if (input.instructions !== undefined) utterance.description = input.instructions;
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...HUME_SPEED_RANGE);
    utterance.speed = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (options.trailing_silence !== undefined) utterance.trailing_silence = options.trailing_silence;
  const body: HumeSpeechRequestBody = { utterances: [utterance], format: { type: 'pcm' }, version };
  if (options.instant_mode !== undefined) body.instant_mode = options.instant_mode;
  return {
    method: 'POST',
    path: '/v0/tts/stream/file',
    headers: { 'x-hume-api-key': credentials.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    // Both router formats come from Hume's 48 kHz pcm: resampled to 24 kHz, and encoded for mp3.
    output: { framing: { kind: 'raw' }, container: 'raw', encoding: 's16le', sampleRate: HUME_SAMPLE_RATE, channels: 1 },
  };
}
