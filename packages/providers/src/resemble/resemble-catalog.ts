// Resemble AI's catalog: the Chatterbox models with a per-character price estimate. Voices are the account's own
// (8-character uuids), so there is no static list: the live list (GET /v2/voices) is the catalog.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor } from '../types.js';

// Resemble publishes no per-character API rate; a third-party integration reports about $0.10 per minute of
// speech, which at ~900 characters a minute is about $110 per 1M characters (110 micros): an estimate.
const MICROS_PER_CHARACTER = 110;
/** Resemble takes at most 3,000 characters of text or SSML per synthesis request. */
const MAX_INPUT_CHARACTERS = 3000;

function model(id: string, name: string): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

export const resembleDescriptor: ProviderDescriptor = {
  id: 'resemble',
  name: 'Resemble AI (Chatterbox)',
  website: 'https://docs.app.resemble.ai/docs/text_to_speech',
  requiresApiKey: true,
  models: [
    model('chatterbox', 'Chatterbox'),
    model('chatterbox-turbo', 'Chatterbox Turbo'),
    model('chatterbox-multilingual', 'Chatterbox Multilingual'),
  ],
  voices: [],
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'JSON synthesis with base64 audio and timestamps (POST /synthesize), including its mp3 output',
      'websocket streaming (wss://websocket.cluster.resemble.ai/stream)',
      'timestamps encoded in the streamed WAV (wav_encoded_timestamps)',
      'SSML prompts and emotion exaggeration',
      'voice cloning, projects and clips',
    ],
    quirks: [
      'price is an estimate: about $0.10 per minute as a third-party integration reports it, taken as 110 micros per character',
      'the HTTP stream is WAV only: the router asks for PCM_16 at 44.1 kHz (a rate the SDK documents for streaming; 24 kHz is not listed) and resamples to 24 kHz, encoding mp3 itself',
      'two hosts as in the official SDK: RESEMBLE_BASE_URL is the management API (voices; SDK setBaseUrl, default https://app.resemble.ai/api), RESEMBLE_SYNTHESIS_URL the synthesis server (SDK setSynthesisUrl, default https://f.cluster.resemble.ai)',
      'auth is Authorization: Bearer as the docs show (the SDK 3.5.3 sends x-access-token to the synthesis server; the double accepts both)',
      'speed and instructions have no request field (Resemble takes them as SSML) and are dropped with a warning',
      'error bodies are {success: false, message}; a 404 in that shape is taken as an unknown voice (unconfirmed); messages are never read',
      'the model field is sent as given (chatterbox, chatterbox-turbo, chatterbox-multilingual per third-party integrations)',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
