// Azure AI Speech's catalog: one "model" (the neural voices; the voice name picks the actual model) with a
// per-character price estimate, and a few multilingual and locale voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** Neural TTS, pay as you go: $15 per 1M characters (Azure pricing page, standard regions); HD voices cost more. */
const MICROS_PER_CHARACTER = 15;
/**
 * Azure caps the audio of one request at 10 minutes (longer output is cut); 5000 characters stays well
 * inside it at any speaking rate the router allows.
 */
const MAX_INPUT_CHARACTERS = 5000;

const models: ModelDescriptor[] = [
  {
    id: 'neural',
    name: 'Azure neural voices (REST)',
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER },
    maxInputCharacters: MAX_INPUT_CHARACTERS,
  },
];

function voice(id: string, name: string, language: string, gender: string): VoiceDescriptor {
  return { id, name, language, labels: { gender, type: 'Neural' }, modelCompatibility: ['neural'] };
}

/** Short names as GET /cognitiveservices/voices/list returns them (snapshot, 2026). */
const voices: VoiceDescriptor[] = [
  voice('en-US-AvaMultilingualNeural', 'Ava Multilingual', 'en-US', 'female'),
  voice('en-US-AndrewMultilingualNeural', 'Andrew Multilingual', 'en-US', 'male'),
  voice('en-US-JennyNeural', 'Jenny', 'en-US', 'female'),
  voice('en-US-GuyNeural', 'Guy', 'en-US', 'male'),
  voice('en-GB-SoniaNeural', 'Sonia', 'en-GB', 'female'),
  voice('de-DE-KatjaNeural', 'Katja', 'de-DE', 'female'),
  voice('fr-FR-DeniseNeural', 'Denise', 'fr-FR', 'female'),
  voice('es-ES-AlvaroNeural', 'Alvaro', 'es-ES', 'male'),
];

export const azureDescriptor: ProviderDescriptor = {
  id: 'azure',
  name: 'Azure AI Speech',
  website: 'https://learn.microsoft.com/azure/ai-services/speech-service/rest-text-to-speech',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'client SSML (styles, roles, phonemes, breaks)',
      'websocket synthesis (the Speech SDK path, with word boundaries and visemes)',
      'Bearer tokens from the STS issueToken endpoint and Entra ID auth',
      'custom neural voices (deployment endpoints)',
      'batch (long audio) synthesis',
    ],
    quirks: [
      'price is an estimate: neural voices at $15 per 1M characters pay as you go (HD and custom voices cost more); CJK characters bill double upstream',
      'the model id is nominal: the voice name picks the voice model, so any neural voice name works with model "neural"',
      'the plain text is sent as SSML built by the router: markup characters are escaped and characters XML 1.0 forbids are removed; client SSML is not accepted',
      'speed maps to <prosody rate> as a relative percentage, clamped to 0.5..2',
      'instructions are not supported and are dropped with a warning',
      'xml:lang is the locale at the start of the voice name (provider_options.language overrides it)',
      'mp3 is audio-24khz-96kbitrate-mono-mp3 (provider_options.mp3_format picks another); pcm is raw-24khz-16bit-mono-pcm',
      'error answers carry no machine code (often no body); a 400 is reported as a refused voice, since the SSML is router-built',
      'the official Speech SDK (microsoft-cognitiveservices-speech-sdk) synthesizes over WebSocket, not this REST endpoint: the fidelity test checks the SDK against the double only on its REST voice list; the synthesis wire follows the REST reference',
      `one request's audio is capped at 10 minutes upstream; the router limits input to ${MAX_INPUT_CHARACTERS} characters`,
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
