// Fish Audio's catalog: the S2/S1 families priced per UTF-8 byte (charged here per character), no fixed voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor } from '../types.js';

// Fish Audio publishes $15.00 per 1M UTF-8 bytes of input text. The router prices characters: 15 micros per
// character is exact for ASCII text; text outside ASCII costs Fish 2 to 4 bytes per character (see quirks).
const MICROS_PER_CHARACTER = 15;
/** Fish documents no per-request cap that we could confirm; 5,000 is a conservative bound. */
const MAX_INPUT_CHARACTERS = 5000;

function model(id: string, name: string): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const models: ModelDescriptor[] = [
  model('s2.1-pro', 'S2.1 Pro'),
  model('s2-pro', 'S2 Pro'),
  model('s1', 'S1'),
  model('speech-1.6', 'Speech 1.6 (legacy)'),
  model('speech-1.5', 'Speech 1.5 (legacy)'),
];

export const fishDescriptor: ProviderDescriptor = {
  id: 'fish',
  name: 'Fish Audio',
  website: 'https://docs.fish.audio/api-reference/endpoint/openapi-v1/text-to-speech',
  requiresApiKey: true,
  models,
  // Fish voices are community and account voice models addressed by id; there is no fixed list.
  voices: [],
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'listing the public community library (GET /model without self; hundreds of thousands of models): its models are usable by id',
      'inline reference audio (msgpack references)',
      'websocket streaming and the timestamps stream',
      'opus and wav output; other sample rates',
    ],
    quirks: [
      'price: $15 per 1M UTF-8 bytes, charged as 15 micros per character: exact for ASCII, but non-ASCII text costs Fish 2-4x more per character; override with PRICING_FILE for such traffic',
      'Fish sends mp3 at 32 or 44.1 kHz only: the router asks for pcm at 24 kHz for both formats and encodes mp3 itself (24 kHz mono)',
      'the model travels in the `model` header; a voice is a Fish voice model id (reference_id, 32 hex characters), refused before sending otherwise',
      'speed is clamped to 0.5..2 and sent as prosody.speed; instructions are not supported (warning)',
      'voices are listed live: the account\'s own trained voice models (GET /model?self=true, paged to total); language from languages[0], gender from a gender tag, preview from the first sample',
      `maximum input per request is not documented; ${MAX_INPUT_CHARACTERS} characters is a conservative limit`,
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
