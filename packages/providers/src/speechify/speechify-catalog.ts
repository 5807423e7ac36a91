// Speechify's catalog: the Simba models with a per-character price estimate and a few shared voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Speechify's direct API price is not published as one rate; OpenRouter passes Speechify's Simba through at
// $15 per 1M characters, so 15 micros per character is the estimate for every Simba model.
const MICROS_PER_CHARACTER = 15;
/** POST /v1/audio/stream accepts up to 20,000 characters (the JSON /v1/audio/speech only 2,000). */
const MAX_INPUT_CHARACTERS = 20_000;

function model(id: string, name: string): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const CLASSIC_MODELS = ['simba-english', 'simba-multilingual'];
const SIMBA_3_MODELS = ['simba-3.0', 'simba-3.2'];

const models: ModelDescriptor[] = [
  model('simba-english', 'Simba English'),
  model('simba-multilingual', 'Simba Multilingual'),
  model('simba-3.0', 'Simba 3.0'),
  model('simba-3.2', 'Simba 3.2'),
];

function sharedVoice(id: string, name: string, gender: string, language: string, compatibility: string[]): VoiceDescriptor {
  return { id, name, language, labels: { gender, type: 'shared' }, modelCompatibility: compatibility };
}

/** Shared voices named in Speechify's docs and examples; the live list (GET /v1/voices) replaces them once fetched. */
const voices: VoiceDescriptor[] = [
  sharedVoice('george', 'George', 'male', 'en-US', [...CLASSIC_MODELS, 'simba-3.0']),
  sharedVoice('henry', 'Henry', 'male', 'en-US', [...CLASSIC_MODELS, 'simba-3.0']),
  sharedVoice('harper_32', 'Harper', 'female', 'en-US', SIMBA_3_MODELS),
  sharedVoice('imogen_32', 'Imogen', 'female', 'en-GB', SIMBA_3_MODELS),
];

export const speechifyDescriptor: ProviderDescriptor = {
  id: 'speechify',
  name: 'Speechify',
  website: 'https://docs.speechify.ai/api-reference',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'JSON speech endpoint with base64 audio and speech marks (POST /v1/audio/speech)',
      'SSE stream with timestamps (/v1/audio/stream/with-timestamps)',
      'SSML input (prosody, emotion tags)',
      'voice cloning (POST /v1/voices)',
      'ogg, aac, wav and ulaw output',
    ],
    quirks: [
      'price is an estimate: $15 per 1M characters as OpenRouter passes Speechify Simba through; the direct rate is not published',
      'mp3 is output_format mp3_24000_128 (Accept audio/mpeg); pcm is output_format pcm_24000 (Accept audio/pcm), taken as s16le mono (Speechify labels it audio/L16; byte order unconfirmed)',
      'speed and instructions have no request field (Speechify takes them as SSML) and are dropped with a warning',
      'an unknown voice is assumed to answer 404 with Speechify\'s {error} body (the docs list 404 for a missing resource); messages are never read',
      'the official JS SDK @speechify/api 1.0.1 defaults to the older host https://api.sws.speechify.com and sends no output_format; the router uses https://api.speechify.ai as the current docs and Python SDK do',
      'simba-3.x serve the curated Simba 3 voices (harper_32...); the classic voices (george...) serve simba-english and simba-multilingual',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
