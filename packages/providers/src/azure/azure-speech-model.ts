// Pure mapping from the router's SpeechInput to Azure's POST /cognitiveservices/v1: SSML body, output format
// header, subscription key header.

import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import { clampSpeed } from '../shared/speech-checks.js';
import type { SpeechInput } from '../types.js';
import { AZURE_MP3_FORMATS, AZURE_PCM_FORMAT, type AzureMp3Format } from './azure-api-types.js';
import { buildAzureSsml, LANGUAGE_TAG, localeOfVoice, prosodyRate } from './azure-ssml.js';

const PROVIDER = 'azure';
/** Azure's standard neural MP3 for the router: 24 kHz (the neural voices' native rate) at 96 kbps. */
export const AZURE_DEFAULT_MP3: AzureMp3Format = 'audio-24khz-96kbitrate-mono-mp3';
/** `<prosody rate>` accepts 0.5x to 2x the voice's default rate. */
export const AZURE_SPEED_RANGE = [0.5, 2] as const;
/** Azure asks callers to identify themselves with a User-Agent (required, under 255 characters). */
export const AZURE_USER_AGENT = 'voice-router';

export const azureProviderOptions = z.object({
  language: z.string().regex(LANGUAGE_TAG).max(35).optional().describe('xml:lang of the SSML document (default: the locale in the voice name)'),
  mp3_format: z.enum(AZURE_MP3_FORMATS).optional().describe(`X-Microsoft-OutputFormat for mp3 (default ${AZURE_DEFAULT_MP3})`),
});

export function buildAzureSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { values, warnings } = readProviderOptions(PROVIDER, input.providerOptions, azureProviderOptions);
  let rate: string | undefined;
  if (input.speed !== undefined) {
    const clamped = clampSpeed(PROVIDER, input.speed, ...AZURE_SPEED_RANGE);
    if (clamped.warning) warnings.push(clamped.warning);
    if (clamped.speed !== 1) rate = prosodyRate(clamped.speed);
  }
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by azure');
  let outputFormat: string = AZURE_PCM_FORMAT;
  if (input.format === 'mp3') outputFormat = (values.mp3_format as AzureMp3Format | undefined) ?? AZURE_DEFAULT_MP3;
  else if (values.mp3_format !== undefined) warnings.push(`provider option "mp3_format" ignored: pcm is always ${AZURE_PCM_FORMAT}`);

  const body = buildAzureSsml({
    text: input.text,
    voice: input.voice,
    language: (values.language as string | undefined) ?? localeOfVoice(input.voice),
    rate,
  });
  return {
    method: 'POST',
    path: '/cognitiveservices/v1',
    headers: {
      'ocp-apim-subscription-key': credentials.apiKey,
      'content-type': 'application/ssml+xml',
      'x-microsoft-outputformat': outputFormat,
      'user-agent': AZURE_USER_AGENT,
    },
    body,
    warnings,
  };
}
