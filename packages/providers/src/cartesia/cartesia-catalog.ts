// Cartesia's speech catalog: the sonic-3 family with a per-character price estimate and a few library voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Cartesia bills ~1 credit per character; the Scale plan ($299 for 8M credits) works out at $37.4 per
// 1M characters, rounded up to 38 micros. Smaller plans cost more per character (Startup ~39, Pro ~50).
const MICROS_PER_CHARACTER = 38;
/** Cartesia documents no per-request cap for /tts/bytes that we could confirm; 5000 is a conservative bound. */
const MAX_INPUT_CHARACTERS = 5000;

function model(id: string, name: string): ModelDescriptor {
  return {
    id,
    name,
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER },
    maxInputCharacters: MAX_INPUT_CHARACTERS,
  };
}

const models: ModelDescriptor[] = [
  model('sonic-3.5', 'Sonic 3.5'),
  model('sonic-3', 'Sonic 3'),
  model('sonic-latest', 'Sonic (latest alias)'),
  model('sonic-3.5-2026-05-04', 'Sonic 3.5 (2026-05-04)'),
  model('sonic-3-2026-01-12', 'Sonic 3 (2026-01-12)'),
];

const ALL_MODELS = models.map((candidate) => candidate.id);

/** Names, genders, accents and taglines as Cartesia's public voice library lists them (snapshot, 2026). */
function libraryVoice(id: string, name: string, language: string, gender: string, tagline: string): VoiceDescriptor {
  return { id, name, language, labels: { gender, tagline, access: 'public' }, modelCompatibility: ALL_MODELS };
}

const voices: VoiceDescriptor[] = [
  libraryVoice('694f9389-aac1-45b6-b726-9d9369183238', 'Sarah', 'en-US', 'female', 'Mindful Woman'),
  libraryVoice('9626c31c-bec5-4cca-baa8-f8ba9e84c8bc', 'Jacqueline', 'en-US', 'female', 'Reassuring Agent'),
  libraryVoice('f786b574-daa5-4673-aa0c-cbe3e8534c02', 'Katie', 'en-US', 'female', 'Friendly Fixer'),
  libraryVoice('a0e99841-438c-4a64-b679-ae501e7d6091', 'Greg', 'en-US', 'male', 'Supporter'),
  libraryVoice('b5aa8098-49ef-475d-89b0-c9262ecf33fd', 'Luis', 'es-ES', 'male', 'News Caster'),
  libraryVoice('162e0f37-8504-474c-bb33-c606c01890dc', 'Catalina', 'es-CO', 'female', 'Neighborly Guide'),
  libraryVoice('f39bf583-3b3d-402f-9ffb-6179d9ec3e35', 'Isabel', 'pt-PT', 'female', 'Confident Woman'),
];

export const cartesiaDescriptor: ProviderDescriptor = {
  id: 'cartesia',
  name: 'Cartesia',
  website: 'https://docs.cartesia.ai/api-reference/tts/bytes',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'sse streaming (/tts/sse)',
      'websocket streaming',
      'timestamps (word and phoneme)',
      'custom and cloned voices (listing)',
      'voice library search (GET /voices)',
      'wav container and other sample rates',
    ],
    quirks: [
      'price is an estimate: ~1 credit per character at the Scale plan rate ($299 / 8M credits = $37.4 per 1M, rounded up to 38 micros); Startup (~$39/1M) and Pro (~$50/1M) plans cost more',
      'speed is clamped to 0.6..1.5 and sent as generation_config.speed, with a warning when clamped',
      'speed and volume controls are temporarily disabled upstream on sonic-3.5',
      'generation_config (speed, volume, emotion) is not sent to sonic-2 and sonic-turbo snapshots',
      'instructions are not supported and are dropped with a warning',
      'mp3 is 44.1 kHz at 128 kbps (provider_options mp3_sample_rate and mp3_bit_rate pick another); pcm is raw pcm_s16le at 24 kHz',
      `maximum input per request is not documented; ${MAX_INPUT_CHARACTERS} characters is a conservative limit`,
      'the API version is pinned with the Cartesia-Version header (2026-08-14)',
      'voice labels come from a 2026 snapshot of the public library and may have changed; a0e99841… was earlier listed as "Barbershop Man"',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
