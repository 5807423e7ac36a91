// Rime's catalog: Arcana, Mist v3/v2 and Coda with a per-character price estimate and a few speakers.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Rime's per-character rates are not published as one figure (plans and enterprise pricing); $40 per 1M
// characters (40 micros) is an estimate.
const MICROS_PER_CHARACTER = 40;

function model(id: string, name: string, maxInputCharacters: number): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters };
}

// Mist pages document 500 characters per API request; Arcana's say longer text is accepted, so 5,000 is a
// conservative bound there (Coda's limit is not documented).
const models: ModelDescriptor[] = [
  model('arcana', 'Arcana', 5000),
  model('mistv3', 'Mist v3', 500),
  model('mistv2', 'Mist v2', 500),
  model('coda', 'Coda', 5000),
];

function speaker(id: string, gender: string, compatibleModels: string[]): VoiceDescriptor {
  return { id, name: id.charAt(0).toUpperCase() + id.slice(1), language: 'en', labels: { gender }, modelCompatibility: compatibleModels };
}

const ARCANA = ['arcana'];
const MIST = ['mistv3', 'mistv2'];
const voices: VoiceDescriptor[] = [
  speaker('luna', 'female', ARCANA),
  speaker('celeste', 'female', ARCANA),
  speaker('astra', 'female', ARCANA),
  speaker('orion', 'male', ARCANA),
  speaker('ursa', 'male', ARCANA),
  speaker('cove', 'male', MIST),
  speaker('marsh', 'male', MIST),
  speaker('lagoon', 'female', MIST),
];

export const rimeDescriptor: ProviderDescriptor = {
  id: 'rime',
  name: 'Rime',
  website: 'https://docs.rime.ai/api-reference',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'websocket streaming',
      'opus, mulaw and wav output; other sampling rates',
      'Mist bracket controls (pauseBetweenBrackets, phonemizeBetweenBrackets, inlineSpeedAlpha)',
    ],
    quirks: [
      'price is an estimate: 40 micros per character; Rime does not publish one per-character rate',
      'the format travels in the Accept header: audio/mp3 for mp3, audio/pcm (16-bit little-endian, samplingRate 24000) for pcm',
      'speed maps to speedAlpha (mistv2) or timeScaleFactor (mistv3, coda) as 1/speed, both "greater is slower"; arcana has no speed control (warning)',
      'instructions are not supported and are dropped with a warning',
      'speakers are lower-case names; voices that are not [A-Za-z0-9_-] are refused before sending',
      'mist models take 500 characters per request; arcana and coda are bounded at 5,000 here (their limit is not documented)',
      'speakers are listed live from Rime\'s public catalog (GET /data/voices/all-v2.json, model → ISO 639-2 language → speakers; phantom language-code entries and models the router does not list are skipped) with labels from /data/voices/voice_details.json when it answers; no key is sent to these public files; the shapes are inferred from the files and third-party readers, not from a documented schema',
      'no SDK fidelity test: Rime\'s Node.js SDK (alpha) streams over gRPC, not this HTTP API; error bodies are undocumented and only statuses are read',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
