// The Rime fake's public speaker catalog: GET /data/voices/all-v2.json → {<modelId>: {<ISO 639-2 lang>: [speaker]}}
// (with the real file's quirk of a language code listed among its own speakers, and a retired model), and
// GET /data/voices/voice_details.json → [{speaker, modelId, lang, gender, age, country, description}]. Both are
// public (no key), as Rime serves them.

import { jsonReply, type FakeJsonReply } from '../testing/server/fake-handler.js';

export const RIME_ALL_VOICES_PATH = '/data/voices/all-v2.json';
export const RIME_VOICE_DETAILS_PATH = '/data/voices/voice_details.json';

const catalog: Record<string, Record<string, string[]>> = {
  arcana: { eng: ['luna', 'celeste', 'astra', 'orion', 'ursa', 'andromeda', 'esther'] },
  mistv3: { eng: ['cove', 'marsh', 'lagoon', 'peak', 'breeze'] },
  mistv2: { eng: ['cove', 'marsh', 'lagoon', 'peak', 'breeze'], spa: ['isa', 'mari'] },
  // The real file lists a language code among its own speakers ("hin" under coda.hin): not a voice.
  coda: { eng: ['luna', 'orion'], hin: ['hin', 'taru'] },
  // A retired model still present in the file.
  mist: { eng: ['cove', 'old_timer'] },
};

const details = [
  { speaker: 'luna', modelId: 'arcana', lang: 'eng', gender: 'Female', age: 'Young Adult', country: 'United States', description: 'Warm and bright' },
  { speaker: 'orion', modelId: 'arcana', lang: 'eng', gender: 'Male', age: 'Middle Aged', country: 'United States', description: 'Deep, steady narrator' },
  { speaker: 'cove', modelId: 'mistv2', lang: 'eng', gender: 'Male', age: 'Young Adult', country: 'United States', description: 'Casual' },
  { speaker: 'isa', modelId: 'mistv2', lang: 'spa', gender: 'Female', age: 'Young Adult', country: 'Mexico', description: 'Friendly' },
  { speaker: 'taru', modelId: 'coda', lang: 'hin', gender: 'Female', age: 'Young Adult', country: 'India', description: 'Clear and calm' },
];

/** Speakers the fake synthesizes with, by model (phantom language entries left out). */
export const RIME_FAKE_SPEAKERS: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries(catalog).map(([model, languages]) => [
    model,
    new Set(Object.entries(languages).flatMap(([language, speakers]) => speakers.filter((speaker) => speaker !== language))),
  ]),
);

export function rimeVoiceData(pathname: string): FakeJsonReply | undefined {
  if (pathname === RIME_ALL_VOICES_PATH) return jsonReply(catalog);
  if (pathname === RIME_VOICE_DETAILS_PATH) return jsonReply(details);
  return undefined;
}
