// Hume's Octave catalog: two Octave versions with a per-character price estimate and a few library voices.

import { NEVER_SMOKE_TESTED, type ModelDescriptor, type ProviderDescriptor, type VoiceDescriptor } from '../types.js';

// Hume sells subscriptions with included characters and per-character overage; the figures are not published
// as one rate. $150 per 1M characters (150 micros) is an estimate near the paid plans' overage.
const MICROS_PER_CHARACTER = 150;
/** Octave takes at most 5,000 characters of text per utterance; the router sends one utterance. */
const MAX_INPUT_CHARACTERS = 5000;

function model(id: string, name: string): ModelDescriptor {
  return { id, name, responseFormats: ['mp3', 'pcm'], pricing: { unit: 'character', microsPerUnit: MICROS_PER_CHARACTER }, maxInputCharacters: MAX_INPUT_CHARACTERS };
}

const models: ModelDescriptor[] = [model('octave-1', 'Octave 1'), model('octave-2', 'Octave 2')];

/** Voices from Hume's voice library (provider HUME_AI), addressed by name. */
function libraryVoice(name: string, gender: string): VoiceDescriptor {
  return { id: name, name, language: 'en', labels: { gender, provider: 'HUME_AI' }, modelCompatibility: ['octave-1', 'octave-2'] };
}

const voices: VoiceDescriptor[] = [libraryVoice('Ava Song', 'female'), libraryVoice('Male English Actor', 'male'), libraryVoice('Vince Douglas', 'male')];

export const humeDescriptor: ProviderDescriptor = {
  id: 'hume',
  name: 'Hume (Octave TTS)',
  website: 'https://dev.hume.ai/reference/text-to-speech-tts/synthesize-file-streaming',
  requiresApiKey: true,
  models,
  voices,
  capabilities: {
    supportedFormats: ['mp3', 'pcm'],
    unwiredCapabilities: [
      'json and ndjson endpoints (/v0/tts, /v0/tts/stream/json) with timestamps',
      'websocket streaming input',
      'several utterances, context and num_generations',
      'voice design without a voice (the router always names one)',
    ],
    quirks: [
      'price is an estimate: Hume bills subscriptions with included characters plus overage; 150 micros per character',
      'Hume streams 48 kHz only (its mp3 too): the router asks for 48 kHz pcm and resamples it to 24 kHz, encoding mp3 itself',
      'instructions become the utterance description (acting directions; Hume advises 100 characters or fewer)',
      'speed is clamped to 0.5..2 (Hume warns values outside 0.75..1.5 may be unstable)',
      'a voice is a library voice name (provider HUME_AI) or an id (a UUID); provider_options.voice_provider CUSTOM_VOICE selects your own voices',
      'error bodies: a 404 in Hume\'s {code, error, message} object is taken as an unknown voice (Hume does not document its codes); messages are never read',
      'models octave-1 and octave-2 map to the request field version "1" and "2"',
      'voices are listed live (GET /v0/tts/voices, provider HUME_AI then CUSTOM_VOICE, paged by page_number): ids are UUIDs, label provider says which voice_provider a voice needs; the listing has no language or gender (und); compatible_octave_models read as versions "1"/"2" (unconfirmed) or model ids',
    ],
    lastSmokeTest: NEVER_SMOKE_TESTED,
  },
};
