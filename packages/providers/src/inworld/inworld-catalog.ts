// Inworld's TTS catalog: its five models with per-character prices (reported) and a few built-in voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** The API refuses more than 2,000 characters per request (the official SDK's STREAM_MAX_CHARS). */
const MAX_INPUT_CHARACTERS = 2000;

// Prices per 1M characters as resellers report them ($5 mini models, $10 max models, $35 tts-2): estimates.
function model(id: string, name: string, microsPerUnit: number): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const models: ModelDescriptor[] = [
  model('inworld-tts-1.5-mini', 'Inworld TTS 1.5 Mini', 5),
  model('inworld-tts-1.5-max', 'Inworld TTS 1.5 Max', 10),
  model('inworld-tts-2', 'Inworld TTS 2', 35),
  model('inworld-tts-1', 'Inworld TTS 1', 5),
  model('inworld-tts-1-max', 'Inworld TTS 1 Max', 10),
];

const ALL_MODELS = models.map((entry) => entry.id);

function voice(id: string, gender: string): VoiceDescriptor {
  return { id, name: id, language: 'en', labels: { gender, source: 'SYSTEM' }, modelCompatibility: ALL_MODELS };
}

/** Built-in voices (addressed by name); the live list (GET /voices/v1/voices) replaces them once it succeeds. */
const voices: VoiceDescriptor[] = [voice('Ashley', 'female'), voice('Dennis', 'male'), voice('Alex', 'male'), voice('Olivia', 'female'), voice('Timothy', 'male')];

export const inworldDescriptor: ProviderDescriptor = {
  id: 'inworld',
  name: 'Inworld TTS',
  website: 'https://docs.inworld.ai/api-reference/ttsAPI/texttospeech/synthesize-speech-stream',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'word and character timestamps (timestampType)',
      'websocket bidirectional streaming (voice:streamBidirectional)',
      'voice cloning and voice design',
      'JWT (Bearer) authentication; the router sends the Basic API key',
    ],
    quirks: [
      'prices are estimates from reported per-character rates ($5, $10 and $35 per 1M characters)',
      'the router uses the streaming endpoint (tts/v1/voice:stream): NDJSON lines with base64 audio in result.audioContent, decoded by the router',
      'mp3 is asked at 24 kHz 128 kbps; pcm as PCM (headerless 16-bit) at 24 kHz',
      'INWORLD_API_KEY is the Base64 credential exactly as the Inworld portal shows it; it travels as Authorization: Basic <key>',
      'speed maps to audioConfig.speakingRate, clamped to 0.5..1.5; instructions are ignored',
      'errors are Google-style {code, message}: gRPC NOT_FOUND is taken as an unknown voice (Inworld does not document its codes); messages are never read',
      'input is capped at 2,000 characters per request (the SDK splits longer text; the router does not)',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
