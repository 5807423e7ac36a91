// Groq speaks OpenAI's speech dialect under /openai/v1 and answers WAV: the OpenAI mapping with Groq's settings.

import { TARGET_SAMPLE_RATE, type OutputDescription } from '@voice-router/audio';
import type { HttpProviderCredentials, HttpSpeechRequest } from '../http/http-speech-adapter.js';
import { NO_PROVIDER_OPTIONS } from '../shared/provider-options.js';
import { buildOpenAICompatibleSpeechRequest, type OpenAICompatibleSpeechSettings } from '../openai/openai-speech-model.js';
import type { SpeechInput } from '../types.js';
import { GROQ_ARABIC_MODEL, GROQ_ARABIC_VOICES, GROQ_ENGLISH_MODEL, GROQ_ENGLISH_VOICES, GROQ_MAX_INPUT_CHARACTERS } from './groq-catalog.js';

/**
 * Each Orpheus model has its own fixed voices and Groq has no custom ones; its voice refusals name no field, so
 * another voice is refused before sending. Models added upstream since the catalog pass through.
 */
const VOICES_BY_MODEL: ReadonlyMap<string, readonly string[]> = new Map<string, readonly string[]>([
  [GROQ_ENGLISH_MODEL, GROQ_ENGLISH_VOICES],
  [GROQ_ARABIC_MODEL, GROQ_ARABIC_VOICES],
]);

/** Groq's answer to `response_format: wav`: a WAV header then s16le mono PCM at the requested sample rate. */
const GROQ_WAV_OUTPUT: OutputDescription = { framing: { kind: 'raw' }, container: 'wav' };

export const groqSpeechSettings: OpenAICompatibleSpeechSettings = {
  provider: 'groq',
  // groq-sdk's base URL is the bare origin; every OpenAI-compatible route lives under /openai/v1.
  path: '/openai/v1/audio/speech',
  supportsInstructions: () => false,
  speedRange: [0.5, 5],
  maxInputCharacters: GROQ_MAX_INPUT_CHARACTERS,
  providerOptions: NO_PROVIDER_OPTIONS,
  voicesByModel: VOICES_BY_MODEL,
  // WAV at 24 kHz for both router formats: pcm is the WAV's data, mp3 is encoded from it by the router.
  upstreamFormat: () => ({ fields: { response_format: 'wav', sample_rate: TARGET_SAMPLE_RATE }, output: GROQ_WAV_OUTPUT }),
};

export function buildGroqSpeechRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest {
  return buildOpenAICompatibleSpeechRequest(input, credentials, groqSpeechSettings);
}
