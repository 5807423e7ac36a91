// Groq's speech catalog: Canopy Labs' Orpheus models served on Groq, their fixed voices and per-character prices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

export const GROQ_ENGLISH_MODEL = 'canopylabs/orpheus-v1-english';
export const GROQ_ARABIC_MODEL = 'canopylabs/orpheus-arabic-saudi';
/** Groq's Orpheus models take at most 200 characters of input per request. */
export const GROQ_MAX_INPUT_CHARACTERS = 200;

const models: ModelDescriptor[] = [
  // Groq's pricing page (2026): $22 per 1M characters for Orpheus English, $40 per 1M for Orpheus Arabic (Saudi).
  { id: GROQ_ENGLISH_MODEL, name: 'Orpheus V1 English', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 22 }, maxInputCharacters: GROQ_MAX_INPUT_CHARACTERS },
  { id: GROQ_ARABIC_MODEL, name: 'Orpheus Arabic (Saudi)', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: 40 }, maxInputCharacters: GROQ_MAX_INPUT_CHARACTERS },
];

function voice(id: string, gender: 'female' | 'male', language: string, model: string): VoiceDescriptor {
  return { id, name: id.charAt(0).toUpperCase() + id.slice(1), language, labels: { gender }, modelCompatibility: [model] };
}

export const GROQ_ENGLISH_VOICES = ['autumn', 'diana', 'hannah', 'austin', 'daniel', 'troy'] as const;
export const GROQ_ARABIC_VOICES = ['abdullah', 'fahad', 'sultan', 'lulwa', 'noura', 'aisha'] as const;

const voices: VoiceDescriptor[] = [
  voice('autumn', 'female', 'en-US', GROQ_ENGLISH_MODEL),
  voice('diana', 'female', 'en-US', GROQ_ENGLISH_MODEL),
  voice('hannah', 'female', 'en-US', GROQ_ENGLISH_MODEL),
  voice('austin', 'male', 'en-US', GROQ_ENGLISH_MODEL),
  voice('daniel', 'male', 'en-US', GROQ_ENGLISH_MODEL),
  voice('troy', 'male', 'en-US', GROQ_ENGLISH_MODEL),
  voice('abdullah', 'male', 'ar-SA', GROQ_ARABIC_MODEL),
  voice('fahad', 'male', 'ar-SA', GROQ_ARABIC_MODEL),
  voice('sultan', 'male', 'ar-SA', GROQ_ARABIC_MODEL),
  voice('lulwa', 'female', 'ar-SA', GROQ_ARABIC_MODEL),
  voice('noura', 'female', 'ar-SA', GROQ_ARABIC_MODEL),
  voice('aisha', 'female', 'ar-SA', GROQ_ARABIC_MODEL),
];

export const groqDescriptor: ProviderDescriptor = {
  id: 'groq',
  name: 'Groq',
  website: 'https://console.groq.com/docs/text-to-speech',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: ['flac, mp3, mulaw and ogg response formats (listed by the SDK; Groq serves wav only for now)', 'sample rates other than 24 kHz'],
    quirks: [
      'Groq answers WAV only (its documented default; the other response_format values the SDK lists are not served yet): the router asks for wav at sample_rate 24000, strips the header for pcm and encodes mp3 itself',
      'input is limited to 200 characters per request',
      'prices from Groq\'s pricing page (2026): Orpheus English $22 per 1M characters, Orpheus Arabic (Saudi) $40 per 1M',
      'each voice belongs to one model (English voices with orpheus-v1-english, Saudi Arabic voices with orpheus-arabic-saudi); another voice is refused before sending, since Groq\'s refusal names no field',
      'instructions are dropped with a warning; Orpheus English takes vocal directions inline in the text instead (e.g. [cheerful])',
      'the PlayAI models (playai-tts, playai-tts-arabic) were retired by Groq and are not listed',
      'errors use OpenAI\'s shape; only code model_not_found names a field (model), other 400s name none',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
