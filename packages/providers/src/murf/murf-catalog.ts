// Murf's catalog: the two streaming models (FALCON, GEN2) with per-character price estimates and a few voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Murf's Falcon streaming is reported at $0.01 per minute of audio; at about 15 characters per second that is
// near $11 per 1M characters (11 micros). GEN2 is sold in character plans with no published API rate: 40 micros
// is an estimate. Both are estimates; operators set their own with PRICING_FILE.
const FALCON_MICROS_PER_CHARACTER = 11;
const GEN2_MICROS_PER_CHARACTER = 40;
/** Murf publishes no limit for the stream endpoint; 5,000 characters is the router's guard (unconfirmed upstream). */
const MAX_INPUT_CHARACTERS = 5000;

function model(id: string, name: string, microsPerUnit: number): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const models: ModelDescriptor[] = [model('FALCON', 'Falcon (low latency)', FALCON_MICROS_PER_CHARACTER), model('GEN2', 'Gen2', GEN2_MICROS_PER_CHARACTER)];

function voice(id: string, name: string, language: string, gender: string): VoiceDescriptor {
  return { id, name, language, labels: { gender }, modelCompatibility: ['FALCON', 'GEN2'] };
}

/** Stand-ins until the live list (GET /v1/speech/voices) first succeeds. */
const voices: VoiceDescriptor[] = [
  voice('en-US-natalie', 'Natalie', 'en-US', 'female'),
  voice('en-US-terrell', 'Terrell', 'en-US', 'male'),
  voice('en-UK-ruby', 'Ruby', 'en-GB', 'female'),
  voice('de-DE-matthias', 'Matthias', 'de-DE', 'male'),
];

export const murfDescriptor: ProviderDescriptor = {
  id: 'murf',
  name: 'Murf',
  website: 'https://murf.ai/api/docs/api-reference/text-to-speech/stream',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'the JSON generate endpoint (/v1/speech/generate) with word durations and audio URLs',
      'websocket streaming input',
      'pronunciation dictionaries',
      'wav, flac, ogg, alaw and ulaw output',
    ],
    quirks: [
      'prices are estimates: FALCON from the reported $0.01 per minute of streamed audio (about 11 micros per character), GEN2 40 micros per character',
      'the router asks Murf\'s stream for MP3 or PCM at 24 kHz mono; PCM is taken as headerless s16le (Murf does not document the sample encoding)',
      'speed maps to rate = (speed - 1) x 100, clamped to Murf\'s -50..50 (speed 0.5..1.5); instructions are ignored (use provider_options.style)',
      'a voice is a Murf voice id (en-US-natalie) or the voice actor\'s name (natalie); other characters are refused before sending',
      'input is capped at 5,000 characters by the router: Murf publishes no limit for its stream endpoint',
      'error bodies are not documented: errors are classified by status only (400 = client refusal, 402 = out of credit); messages are never read',
      'MURF_BASE_URL may name a regional host (https://global.api.murf.ai, https://us-east.api.murf.ai...) to pin the stream\'s region',
      'no official JS SDK on npm (Murf publishes a Python SDK), so there is no SDK fidelity test',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
