// LMNT's speech catalog: the blizzard model with a per-character price estimate and its system voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// LMNT sells plans with included characters (Indie: $10 for 200K characters = $50 per 1M) and per-character
// overage; the pay-as-you-go rate is not published as one figure, so $50 per 1M (50 micros) is an estimate.
const MICROS_PER_CHARACTER = 50;
/** The API refuses more than 5,000 characters (spaces included) per request. */
const MAX_INPUT_CHARACTERS = 5000;

const models: ModelDescriptor[] = [
  {
    id: 'blizzard',
    name: 'Blizzard',
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER },
    maxInputCharacters: MAX_INPUT_CHARACTERS,
  },
];

/** A few of LMNT's system voices (`GET /v1/ai/voice/list?owner=system`, 2026 snapshot); the id is the lower-case name. */
function systemVoice(id: string, name: string, gender: string): VoiceDescriptor {
  return { id, name, language: 'en', labels: { gender, owner: 'system' }, modelCompatibility: ['blizzard'] };
}

const voices: VoiceDescriptor[] = [
  systemVoice('leah', 'Leah', 'female'),
  systemVoice('morgan', 'Morgan', 'female'),
  systemVoice('ava', 'Ava', 'female'),
  systemVoice('ansel', 'Ansel', 'male'),
  systemVoice('brandon', 'Brandon', 'male'),
  systemVoice('daniel', 'Daniel', 'male'),
];

export const lmntDescriptor: ProviderDescriptor = {
  id: 'lmnt',
  name: 'LMNT',
  website: 'https://docs.lmnt.com/api-reference/speech/generate',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'websocket speech sessions (/v1/ai/speech/stream)',
      'word timestamps (POST /v1/ai/speech, JSON with base64 audio)',
      'voice creation and cloning (POST /v1/ai/voice)',
      'ulaw, webm, aac, wav and pcm_f32le output; 8 and 16 kHz',
    ],
    quirks: [
      'price is an estimate: LMNT sells plans with included characters (Indie $10 per 200K = $50 per 1M) plus overage; 50 micros per character',
      'mp3 is what LMNT streams as mp3: 96 kbps at 24 kHz; pcm is pcm_s16le at sample_rate 24000',
      'speed and instructions are not supported by the HTTP API and are dropped with a warning',
      'error bodies are assumed to be {error: {type, message}} (the official SDK reads error.type); only the type is compared',
      'voices are listed live (GET /v1/ai/voice/list?owner=all: system voices and the account\'s own, voices still training left out; language undetermined, LMNT voices are multilingual); the static system voices (a 2026 snapshot, ids are lower-case names) stand in until the first listing succeeds',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
