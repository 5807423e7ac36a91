// Groq text to speech: OpenAI's speech dialect under /openai/v1, composed from the OpenAI module.

import { defineOpenAICompatibleProvider } from '../openai/openai-compatible-provider.js';
import { groqDescriptor } from './groq-catalog.js';
import { groqSpeechSettings } from './groq-speech-model.js';

export const groqProvider = defineOpenAICompatibleProvider({
  id: 'groq',
  // As in the official groq-sdk (GROQ_BASE_URL): the bare origin; routes carry /openai/v1.
  defaultBaseUrl: 'https://api.groq.com',
  baseUrlConvention: 'bare origin, as GROQ_BASE_URL in the groq-sdk; default https://api.groq.com',
  descriptor: groqDescriptor,
  settings: groqSpeechSettings,
  mp3Quality: 'none upstream (Groq answers WAV only): 24 kHz WAV encoded to mp3 by the router',
  output: {
    mp3: { container: 'wav', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
    pcm: { container: 'wav', encoding: 'pcm_s16le', sampleRate: 24_000, channels: 1, framing: 'bytes' },
  },
  testKit: () => import('./groq-test-kit.js').then((kit) => kit.groqTestKit),
});

export { groqDescriptor, GROQ_ARABIC_MODEL, GROQ_ENGLISH_MODEL } from './groq-catalog.js';
export { buildGroqSpeechRequest, groqSpeechSettings } from './groq-speech-model.js';
export type { GroqSpeechModelId, GroqSpeechRequestBody } from './groq-api-types.js';
