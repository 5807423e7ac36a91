// Smallest.ai's Waves catalog: Lightning v3.1 and its Pro pool with a per-character price estimate and the
// voices its docs use.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Smallest.ai sells Waves on plans and credits without a published per-character API rate; $40 per 1M characters
// (40 micros) is an estimate.
const MICROS_PER_CHARACTER = 40;
/** No per-request cap is published for /waves/v1/tts; 5,000 characters keeps one request to minutes of speech. */
const MAX_INPUT_CHARACTERS = 5000;

function model(id: string, name: string): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

function voice(id: string, name: string, language: string, gender: string, models: string[]): VoiceDescriptor {
  return { id, name, language, labels: { gender }, modelCompatibility: models };
}

const voices: VoiceDescriptor[] = [
  voice('magnus', 'Magnus', 'en', 'male', ['lightning_v3.1']),
  voice('meher', 'Meher', 'hi', 'female', ['lightning_v3.1_pro']),
];

export const smallestDescriptor: ProviderDescriptor = {
  id: 'smallest',
  name: 'Smallest.ai (Waves Lightning)',
  website: 'https://waves-docs.smallest.ai',
  requiresApiKey: true,
  models: [model('lightning_v3.1', 'Lightning v3.1'), model('lightning_v3.1_pro', 'Lightning v3.1 Pro')],
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'SSE and WebSocket streaming (/waves/v1/tts/live) with word timestamps',
      'pronunciation dictionaries (pronunciation_dicts ids)',
      'voice cloning (add_voice)',
      'wav, ulaw and alaw output; legacy lightning, lightning-large and lightning-v2 endpoints',
    ],
    quirks: [
      'price is an estimate: Smallest.ai publishes no per-character API rate; 40 micros per character',
      'mp3 is output_format mp3 at sample_rate 24000; pcm is output_format pcm at 24000 (taken as s16le mono); both sent with Accept: audio/wav as the SDK does',
      'speed is clamped to 0.5..2; instructions are dropped with a warning',
      'Smallest does not reject a voice from the other model pool (it answers wrong audio): pair Pro voices with lightning_v3.1_pro',
      'the live voice list is the Lightning v3.1 catalogue (GET /waves/v1/lightning-v3.1/get_voices; the API returns both pools without a Pro flag)',
      'error bodies are unconfirmed; only statuses are read (400 and 422 are the client\'s values)',
      'the npm smallestai SDK (1.0.1) speaks only the legacy waves-api.smallest.ai /api/v1/lightning* endpoints, so no fidelity test runs against /waves/v1/tts; the double follows the Python SDK of 2026-08',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
