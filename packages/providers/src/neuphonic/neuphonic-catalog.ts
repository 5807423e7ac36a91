// Neuphonic's catalog: one router model (Neuphonic has no model field; the voice selects it), a per-character
// price estimate and a few stock voices.

import { NEVER_SMOKE_TESTED, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Neuphonic sells subscriptions (Free, Business $79 a month, Enterprise) without a published per-character API
// rate; $100 per 1M characters (100 micros) is an estimate.
const MICROS_PER_CHARACTER = 100;
/** No cap is published for the SSE endpoint; 5,000 characters keeps one request to a few minutes of speech. */
const MAX_INPUT_CHARACTERS = 5000;

function stockVoice(id: string, name: string, language: string, gender: string): VoiceDescriptor {
  return { id, name, language, labels: { gender, type: 'stock' }, modelCompatibility: ['default'] };
}

const voices: VoiceDescriptor[] = [
  stockVoice('eeb488b8-d532-4235-aa57-f070cfc44750', 'Hannah', 'en', 'female'),
  stockVoice('8e9c4bc8-3979-48ab-8626-df53befc2090', 'Albert', 'en', 'male'),
  stockVoice('e564ba7e-aa8d-46a2-96a8-8dffedade48f', 'Emily', 'en', 'female'),
  stockVoice('fc854436-2dac-4d21-aa69-ae17b54e98eb', 'Holly', 'en', 'female'),
];

export const neuphonicDescriptor: ProviderDescriptor = {
  id: 'neuphonic',
  name: 'Neuphonic',
  website: 'https://docs.neuphonic.com/build-group/text-to-speech',
  requiresApiKey: true,
  models: [
    { id: 'default', name: 'Neuphonic (model chosen by the voice)', responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS },
  ],
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'websocket streaming (wss://api.neuphonic.com/speak/{lang_code})',
      'JWT auth for browsers (POST /sse/auth)',
      'mu-law output and 8/16/22.05 kHz rates',
      'voice cloning, agents',
    ],
    quirks: [
      'price is an estimate: Neuphonic sells plans (Business $79 a month) without a per-character API rate; 100 micros per character',
      'HTTP synthesis is SSE only: the router asks for pcm_linear at 24 kHz (base64 in data.audio, taken as s16le; byte order unconfirmed) and encodes mp3 itself',
      'speed is clamped to 0.7..2 (range as integrations document it); instructions are dropped with a warning',
      'provider_options.lang_code (default en) goes into the path and the body; provider_options.temperature is passed through',
      'NEUPHONIC_BASE_URL takes the SDKs\' shape (a host such as api.neuphonic.com, https implied) or a full http(s) URL',
      'failures inside the stream (an event with a non-2xx status_code and errors) end the stream as an upstream error',
      'the only model id is default: Neuphonic has no model field and the voice selects the model',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
