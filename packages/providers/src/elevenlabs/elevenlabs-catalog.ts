// ElevenLabs' speech catalog: models with per-character prices and limits, a few premade voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

function model(id: string, name: string, microsPerUnit: number, maxInputCharacters: number): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit }, maxInputCharacters };
}

// $0.05 per 1K characters = 50 micros per character (Flash/Turbo); $0.10 per 1K = 100 (Multilingual v2, v3).
const models: ModelDescriptor[] = [
  model('eleven_flash_v2_5', 'Eleven Flash v2.5', 50, 40_000),
  model('eleven_turbo_v2_5', 'Eleven Turbo v2.5', 50, 40_000),
  model('eleven_flash_v2', 'Eleven Flash v2 (English)', 50, 30_000),
  model('eleven_multilingual_v2', 'Eleven Multilingual v2', 100, 10_000),
  model('eleven_v3', 'Eleven v3', 100, 5_000),
];

const ALL_MODELS = models.map((candidate) => candidate.id);

/** Premade voices; gender and accent follow the labels ElevenLabs shows in its voice library. */
function premade(id: string, name: string, language: string, gender: string, accent: string, extra: Record<string, string> = {}): VoiceDescriptor {
  return { id, name, language, labels: { gender, accent, category: 'premade', ...extra }, modelCompatibility: ALL_MODELS };
}

const voices: VoiceDescriptor[] = [
  premade('21m00Tcm4TlvDq8ikWAM', 'Rachel', 'en-US', 'female', 'american', { status: 'legacy' }),
  premade('pNInz6obpgDQGcFmaJgB', 'Adam', 'en-US', 'male', 'american', { status: 'legacy' }),
  premade('EXAVITQu4vr4xnSDxMaL', 'Sarah', 'en-US', 'female', 'american'),
  premade('FGY2WhTYpPnrIDTdsKH5', 'Laura', 'en-US', 'female', 'american'),
  premade('JBFqnCBsd6RMkjVDRZzb', 'George', 'en-GB', 'male', 'british'),
  premade('onwK4e9ZLuTAKqWW03F9', 'Daniel', 'en-GB', 'male', 'british'),
  premade('Xb7hH8MSUJpSbSDYk0k2', 'Alice', 'en-GB', 'female', 'british'),
  premade('IKne3meq5aSn9XLyUdCD', 'Charlie', 'en-AU', 'male', 'australian'),
];

export const elevenLabsDescriptor: ProviderDescriptor = {
  id: 'elevenlabs',
  name: 'ElevenLabs',
  website: 'https://elevenlabs.io/docs/api-reference/text-to-speech/stream',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'timestamps (/stream/with-timestamps)',
      'custom and cloned voices (listing)',
      'voice library search (GET /v2/voices)',
      'pronunciation dictionaries',
      'websocket input streaming',
      'other output formats (pcm_44100/48000, opus, wav, μ-law)',
    ],
    quirks: [
      'prices are third-party reports of API list prices ($0.05/1K characters Flash/Turbo, $0.10/1K Multilingual v2 and v3); another source quotes $0.06/$0.12, so treat them as estimates',
      'speed is clamped to 0.7..1.2 (the range ElevenLabs accepts), with a warning',
      'instructions are not supported and are dropped with a warning',
      'language_code is dropped for eleven_multilingual_v2, which does not accept it',
      'mp3 is mp3_44100_128 (44.1 kHz, 128 kbps, ElevenLabs\' default); provider_options.output_format picks another mp3_* format (mp3_44100_192 needs a Creator plan); pcm is pcm_24000',
      'quota exhaustion arrives as HTTP 401 (quota_exceeded) and is not retried',
      'two kinds of 429: too_many_concurrent_requests (plan concurrency) and system_busy; both are retried',
      'Rachel and Adam are legacy premade voices and may be hidden for newer accounts',
      'any voice id of the account can be used; only premade voices are listed',
      'turbo models are reported deprecated in favour of flash',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
