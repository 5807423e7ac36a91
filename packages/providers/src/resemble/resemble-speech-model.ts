// Pure mapping from the router's SpeechInput to Resemble's POST /stream request on the synthesis server.

import { z } from 'zod';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { readProviderOptions } from '../shared/provider-options.js';
import type { SpeechInput } from '../types.js';
import type { ResembleStreamRequestBody } from './resemble-api-types.js';

/** The stream's rate: one the SDK lists for streaming; the router resamples it to 24 kHz. */
export const RESEMBLE_SAMPLE_RATE = 44_100;

export const resembleProviderOptions = z.strictObject({
  project_uuid: z.string().regex(/^[0-9a-zA-Z-]{1,64}$/).optional().describe('Project the synthesized clip is filed under'),
});

export type ResembleProviderOptions = z.infer<typeof resembleProviderOptions>;

function readOptions(options: SpeechInput['providerOptions']): ResembleProviderOptions {
  return readProviderOptions('resemble', options ?? {}, resembleProviderOptions).values as ResembleProviderOptions;
}

export function buildResembleSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  const { project_uuid } = readOptions(input.providerOptions);
  const warnings: string[] = [];
  if (input.speed !== undefined) warnings.push('speed ignored: not supported by resemble');
  if (input.instructions !== undefined) warnings.push('instructions ignored: not supported by resemble');
  const body: ResembleStreamRequestBody = {
    voice_uuid: input.voice,
    data: input.text,
    precision: 'PCM_16',
    sample_rate: RESEMBLE_SAMPLE_RATE,
    model: input.modelId,
  };
  if (project_uuid !== undefined) body.project_uuid = project_uuid;
  return {
    method: 'POST',
    path: '/stream',
    headers: { authorization: `Bearer ${credentials.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    warnings,
    // A streaming WAV (16-bit, 44.1 kHz) for both formats: the pipeline strips the header, resamples, encodes mp3.
    output: { framing: { kind: 'raw' }, container: 'wav' },
  };
}
