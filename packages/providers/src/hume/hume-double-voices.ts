// The Hume fake's voices: GET /v0/tts/voices?provider=HUME_AI|CUSTOM_VOICE&page_number=(0-based)&page_size=(1..100)
// → {page_number, page_size, total_pages, voices_page: [{id, name, provider, compatible_octave_models}]}; a page past
// the end is empty (the official SDK's pager stops there).

import { jsonReply, type FakeJsonReply, type FakeSpeechRequest } from '../testing/server/fake-handler.js';

type VoiceProvider = 'HUME_AI' | 'CUSTOM_VOICE';

interface FakeVoice {
  id: string;
  name: string;
  provider: VoiceProvider;
  /** Octave versions the voice works with, as the `version` request field names them ("1", "2"). */
  compatible_octave_models: string[];
}

/** The account's own saved voice (provider CUSTOM_VOICE). */
export const HUME_CUSTOM_VOICE = { id: 'c0ffee00-1234-4abc-9def-000000000001', name: 'Our Support Voice' } as const;

const library = (name: string, id: string, models = ['1', '2']): FakeVoice => ({ id, name, provider: 'HUME_AI', compatible_octave_models: models });

const voices: FakeVoice[] = [
  library('Ava Song', '5bb7de05-c8fe-426a-8fcc-ba4fc4ce9f9c'),
  library('Male English Actor', '8a4b2c36-6f26-4a8e-9b1c-3e7d0f5a2b41'),
  library('Vince Douglas', '1e2d3c4b-5a69-4788-9a1b-2c3d4e5f6a7b'),
  library('Colton Rivers', '2f3e4d5c-6b7a-4899-8aab-bccddeeff001'),
  library('Imani Carter', '3a4b5c6d-7e8f-4901-a2b3-c4d5e6f70002', ['2']),
  library('Sitcom Girl', '4b5c6d7e-8f90-4a12-b3c4-d5e6f7a80003'),
  library('Literature Professor', '5c6d7e8f-9012-4b23-84d5-e6f7a8b90004'),
  { ...HUME_CUSTOM_VOICE, provider: 'CUSTOM_VOICE', compatible_octave_models: ['1', '2'] },
];

/** Voices by provider, for synthesis: name → id. */
export function humeFakeVoices(provider: VoiceProvider): ReadonlyMap<string, string> {
  return new Map(voices.filter((voice) => voice.provider === provider).map((voice) => [voice.name, voice.id]));
}

/** A refusal is `{loc, msg}` for a 422 the double words as Hume's validation errors. */
export function listHumeVoices(request: FakeSpeechRequest): FakeJsonReply | { loc: string; msg: string } {
  const provider = request.query.get('provider');
  if (provider !== 'HUME_AI' && provider !== 'CUSTOM_VOICE') return { loc: 'provider', msg: "Input should be 'HUME_AI' or 'CUSTOM_VOICE'" };
  const pageNumber = Number(request.query.get('page_number') ?? '0');
  if (!Number.isInteger(pageNumber) || pageNumber < 0) return { loc: 'page_number', msg: 'Input should be greater than or equal to 0' };
  const pageSize = Number(request.query.get('page_size') ?? '10');
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100) return { loc: 'page_size', msg: 'Input should be between 1 and 100' };
  const ascending = request.query.get('ascending_order') !== 'false';
  const matching = voices.filter((voice) => voice.provider === provider).sort((a, b) => (ascending ? 1 : -1) * a.name.localeCompare(b.name));
  const page = matching.slice(pageNumber * pageSize, (pageNumber + 1) * pageSize);
  return jsonReply({ page_number: pageNumber, page_size: pageSize, total_pages: Math.ceil(matching.length / pageSize), voices_page: page });
}
