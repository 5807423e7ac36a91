// Google Cloud Text-to-Speech's catalog: one model per voice family (the family sets the price), a few voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** Google counts input in bytes (5,000 per request); 5,000 characters of ASCII stays within it. */
const MAX_INPUT_CHARACTERS = 5000;

/** Voice families as voice names spell them (`en-US-Neural2-F`), with the router's model id for each. */
export const GOOGLE_FAMILIES: Record<string, string> = {
  Standard: 'standard',
  Wavenet: 'wavenet',
  Neural2: 'neural2',
  Studio: 'studio',
  'Chirp3-HD': 'chirp3-hd',
  'Chirp-HD': 'chirp-hd',
};

function model(id: string, name: string, microsPerUnit: number): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

// Per 1M characters, pay as you go, after the monthly free tier (Google Cloud pricing page, 2025 snapshot):
// Standard $4, WaveNet $4, Neural2 $16, Chirp 3 HD $30, Chirp HD $30, Studio $160.
const models: ModelDescriptor[] = [
  model('standard', 'Standard voices', 4),
  model('wavenet', 'WaveNet voices', 4),
  model('neural2', 'Neural2 voices', 16),
  model('chirp3-hd', 'Chirp 3: HD voices', 30),
  model('chirp-hd', 'Chirp HD voices', 30),
  model('studio', 'Studio voices', 160),
];

/** The family model of a voice name, or undefined for names without a known family (Polyglot, News...). */
export function familyModelOf(voice: string): string | undefined {
  const match = /^[a-z]{2,3}-[A-Z0-9]{2,3}-(.+)-[A-Za-z0-9]+$/.exec(voice);
  return match ? GOOGLE_FAMILIES[match[1]!] : undefined;
}

function voice(id: string, language: string, gender: string): VoiceDescriptor {
  const family = familyModelOf(id)!;
  return { id, name: id, language, labels: { gender, family }, modelCompatibility: [family] };
}

const voices: VoiceDescriptor[] = [
  voice('en-US-Standard-C', 'en-US', 'female'),
  voice('en-US-Wavenet-D', 'en-US', 'male'),
  voice('en-US-Neural2-F', 'en-US', 'female'),
  voice('en-US-Chirp3-HD-Charon', 'en-US', 'male'),
  voice('en-US-Studio-O', 'en-US', 'female'),
  voice('en-GB-Neural2-B', 'en-GB', 'male'),
  voice('de-DE-Wavenet-F', 'de-DE', 'female'),
  voice('fr-FR-Neural2-A', 'fr-FR', 'female'),
];

export const googleDescriptor: ProviderDescriptor = {
  id: 'google',
  name: 'Google Cloud Text-to-Speech',
  website: 'https://cloud.google.com/text-to-speech/docs/reference/rest/v1/text/synthesize',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'SSML and Chirp 3 HD markup input',
      'streaming synthesis (StreamingSynthesize, gRPC only)',
      'Gemini-TTS prompts (instructions) and multi-speaker markup',
      'custom voices and voice cloning',
      'long audio synthesis',
      'timepoints (v1beta1)',
    ],
    quirks: [
      'prices are estimates from the pay-as-you-go list per 1M characters (Standard/WaveNet $4, Neural2 $16, Chirp HD and Chirp 3 HD $30, Studio $160); the monthly free tier is not modelled',
      'the model is the voice family: a voice name of a known family must match it (en-US-Neural2-F needs google/neural2, refused otherwise, so a Studio voice is never billed as Standard); names of other families (Polyglot, News...) are sent as asked and billed at the chosen model',
      'v1 REST is not streaming: the whole clip arrives base64 in one JSON object ({"audioContent"}); the router decodes it while the JSON arrives',
      'mp3 is Google\'s only MP3 (32 kbps) at 24 kHz; pcm is LINEAR16 at 24 kHz with its WAV header stripped',
      'speed maps to audioConfig.speakingRate, clamped to 0.25..4',
      'instructions are not supported (Gemini-TTS prompts are not wired) and are dropped with a warning',
      'languageCode is the locale at the start of the voice name (provider_options.language_code overrides it)',
      'Google limits input to 5,000 bytes, not characters: long non-ASCII text can be refused upstream below the character limit',
      'auth: GOOGLE_API_KEY (x-goog-api-key) or a service account key file (GOOGLE_APPLICATION_CREDENTIALS): a JWT signed RS256 with node:crypto is exchanged at the key file\'s token_uri and the token cached until a minute before it expires',
      'the official @google-cloud/text-to-speech SDK speaks gRPC by default, which cannot reach an HTTP double; its fidelity test runs the SDK in REST fallback mode (fallback: true, protocol http)',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
