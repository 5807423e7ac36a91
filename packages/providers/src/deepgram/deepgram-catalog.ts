// Deepgram's speech catalog: Aura-2 and Aura (1) with per-character prices and their fixed voices. A Deepgram
// "model" upstream is one voice (`aura-2-thalia-en`); here the model is the generation (`aura-2`) and the
// voice is the rest (`thalia-en`), so one catalog model lists its voices like every other provider.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

/** Deepgram's pay-as-you-go prices (deepgram.com/pricing): Aura-2 $0.030 and Aura-1 $0.015 per 1K characters. */
const AURA_2_MICROS_PER_CHARACTER = 30;
const AURA_1_MICROS_PER_CHARACTER = 15;
/** The REST endpoint refuses text over 2,000 characters (413). */
export const DEEPGRAM_MAX_INPUT_CHARACTERS = 2000;

const models: ModelDescriptor[] = [
  {
    id: 'aura-2',
    name: 'Aura-2',
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: AURA_2_MICROS_PER_CHARACTER },
    maxInputCharacters: DEEPGRAM_MAX_INPUT_CHARACTERS,
  },
  {
    id: 'aura',
    name: 'Aura',
    responseFormats: ['mp3', 'pcm'],
    pricing: { unit: 'character', microsPerUnit: AURA_1_MICROS_PER_CHARACTER },
    maxInputCharacters: DEEPGRAM_MAX_INPUT_CHARACTERS,
  },
];

/** Aura-2 voices by language (the @deepgram/sdk 5.13 model list, less `perseo-it`, which the API never served). */
export const AURA_2_VOICES: Record<string, readonly string[]> = {
  en: [
    'amalthea', 'andromeda', 'apollo', 'arcas', 'aries', 'asteria', 'athena', 'atlas', 'aurora', 'callista', 'cora',
    'cordelia', 'delia', 'draco', 'electra', 'harmonia', 'helena', 'hera', 'hermes', 'hyperion', 'iris', 'janus',
    'juno', 'jupiter', 'luna', 'mars', 'minerva', 'neptune', 'odysseus', 'ophelia', 'orion', 'orpheus', 'pandora',
    'phoebe', 'pluto', 'saturn', 'selene', 'thalia', 'theia', 'vesta', 'zeus',
  ],
  es: [
    'agustina', 'alvaro', 'antonia', 'aquila', 'carina', 'celeste', 'diana', 'estrella', 'gloria', 'javier', 'luciano',
    'nestor', 'olivia', 'selena', 'silvia', 'sirio', 'valerio',
  ],
  de: ['aurelia', 'elara', 'fabian', 'julius', 'kara', 'lara', 'viktoria'],
  nl: ['beatrix', 'cornelia', 'daphne', 'hestia', 'lars', 'leda', 'rhea', 'roman', 'sander'],
  fr: ['agathe', 'hector'],
  it: ['cesare', 'cinzia', 'demetra', 'dionisio', 'elio', 'flavio', 'livia', 'maia', 'melia'],
  ja: ['ama', 'ebisu', 'fujin', 'izanami', 'uzume'],
};

/** Aura (1) voices, English only. */
export const AURA_1_VOICES: readonly string[] = [
  'angus', 'arcas', 'asteria', 'athena', 'helios', 'hera', 'luna', 'orion', 'orpheus', 'perseus', 'stella', 'zeus',
];

function buildVoices(): VoiceDescriptor[] {
  const byId = new Map<string, VoiceDescriptor>();
  const add = (name: string, language: string, model: string) => {
    const id = `${name}-${language}`;
    const existing = byId.get(id);
    if (existing) {
      existing.modelCompatibility.push(model);
      return;
    }
    byId.set(id, { id, name: name[0]!.toUpperCase() + name.slice(1), language, labels: { family: 'aura' }, modelCompatibility: [model] });
  };
  for (const [language, names] of Object.entries(AURA_2_VOICES)) for (const name of names) add(name, language, 'aura-2');
  for (const name of AURA_1_VOICES) add(name, 'en', 'aura');
  return [...byId.values()];
}

const voices = buildVoices();

export const deepgramDescriptor: ProviderDescriptor = {
  id: 'deepgram',
  name: 'Deepgram Aura',
  website: 'https://developers.deepgram.com/reference/text-to-speech/speak-request',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'websocket streaming (wss /v1/speak)',
      'Flux TTS (POST /v2/speak)',
      'callback delivery (callback, callback_method)',
      'opus, flac, aac, mulaw, alaw output; wav and ogg containers; other sample rates',
    ],
    quirks: [
      'model is the generation (aura-2, aura) and voice is name-language (thalia-en); the upstream model sent is aura-2-thalia-en',
      'prices from deepgram.com/pricing pay-as-you-go: Aura-2 $0.030 and Aura $0.015 per 1K characters (30 and 15 micros per character)',
      'mp3 is 22.05 kHz at 48 kbps (Deepgram mp3 sample rate is fixed); pcm is linear16, sample_rate 24000, container none',
      'speed is sent for aura-2 only, clamped to 0.7-1.5 (the documented range); Aura (1) drops it with a warning',
      'instructions are not supported and are dropped with a warning',
      'error codes beyond INVALID_AUTH are not documented as a list; 400/413/415/422 with a Deepgram error body are client refusals (413 names input)',
      'the built-in voice list is the SDK 5.13 model list; the live list comes from GET /v1/models (each TTS model is one voice)',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
