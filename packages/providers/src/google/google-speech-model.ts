// Pure mapping from the router's SpeechInput to Google's POST /v1/text:synthesize. The answer is one JSON
// object with the clip in base64 (`output` says so); pcm is asked as LINEAR16, whose WAV header is stripped.

import type { OutputDescription } from '@voice-router/audio';
import { z } from 'zod';
import { InvalidSpeechRequestError, quoteName } from '../errors.js';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import type { GoogleSynthesizeRequest } from './google-api-types.js';
import { familyModelOf } from './google-catalog.js';

const PROVIDER = 'google';
export const GOOGLE_SAMPLE_RATE = 24_000;
export const GOOGLE_SPEED_RANGE = [0.25, 4] as const;
const JSON_AUDIO = { kind: 'json', audioField: 'audioContent' } as const;
const MP3_OUTPUT: OutputDescription = { framing: JSON_AUDIO, container: 'mp3' };
const PCM_OUTPUT: OutputDescription = { framing: JSON_AUDIO, container: 'wav' };
/** Voice names are letters, digits and dashes (`en-US-Chirp3-HD-Charon`); anything else is refused locally. */
const VOICE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/;
const LANGUAGE_CODE = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export const googleProviderOptions = z.object({
  language_code: z.string().regex(LANGUAGE_CODE).max(35).optional().describe('voice.languageCode (default: the locale at the start of the voice name)'),
  pitch: z.number().min(-20).max(20).optional().describe('audioConfig.pitch in semitones'),
  volume_gain_db: z.number().min(-96).max(16).optional().describe('audioConfig.volumeGainDb'),
});

/** `en-US-Neural2-F` → `en-US`; `cmn-CN-Wavenet-A` → `cmn-CN`. */
export function languageOfVoice(voice: string): string | undefined {
  return /^([a-z]{2,3}-[A-Za-z0-9]{2,4})-/.exec(voice)?.[1];
}

/** The auth header: the API key, or a service account's access token (`settings.bearer`). */
export function googleAuthHeader(credentials: HttpProviderCredentials): Record<string, string> {
  return credentials.settings.bearer === true ? { authorization: `Bearer ${credentials.apiKey}` } : { 'x-goog-api-key': credentials.apiKey };
}

export function buildGoogleSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, googleProviderOptions);
  if (!VOICE_NAME.test(input.voice)) throw new InvalidSpeechRequestError(`voice ${quoteName(input.voice)} is not a Google voice name`);
  const family = familyModelOf(input.voice);
  if (family !== undefined && family !== input.modelId) {
    throw new InvalidSpeechRequestError(`voice ${quoteName(input.voice)} is a ${family} voice: use model google/${family}`);
  }
  const languageCode = (values.language_code as string | undefined) ?? languageOfVoice(input.voice);
  if (languageCode === undefined) {
    throw new InvalidSpeechRequestError(`voice ${quoteName(input.voice)} names no language: set provider_options.language_code`);
  }
  const body: GoogleSynthesizeRequest = {
    input: { text: input.text },
    voice: { languageCode, name: input.voice },
    audioConfig: { audioEncoding: input.format === 'mp3' ? 'MP3' : 'LINEAR16', sampleRateHertz: GOOGLE_SAMPLE_RATE },
  };
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...GOOGLE_SPEED_RANGE);
    body.audioConfig.speakingRate = clamped.speed;
    if (clamped.warning) warnings.push(clamped.warning);
  }
  if (values.pitch !== undefined) body.audioConfig.pitch = values.pitch as number;
  if (values.volume_gain_db !== undefined) body.audioConfig.volumeGainDb = values.volume_gain_db as number;
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by google');

  return {
    method: 'POST',
    path: '/v1/text:synthesize',
    headers: { ...googleAuthHeader(credentials), 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    output: input.format === 'mp3' ? MP3_OUTPUT : PCM_OUTPUT,
  };
}
