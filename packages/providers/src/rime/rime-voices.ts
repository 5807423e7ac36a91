// Rime's live speaker list: the public catalog GET /data/voices/all-v2.json ({<modelId>: {<ISO 639-2>: [speaker]}},
// one file, not paged) enriched by GET /data/voices/voice_details.json (gender, age, country, description) when
// that answers. One VoiceDescriptor per speaker, compatible with the catalog models that list it.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import {
  bcp47,
  fetchListingPage,
  genderLabel,
  isRecord,
  listingUrl,
  text,
  UNDETERMINED_LANGUAGE,
  VoiceListingError,
  type VoiceListingContext,
} from '../catalog/voice-listing.js';
import { rimeDescriptor } from './rime-catalog.js';

const DEFAULT_BASE_URL = 'https://users.rime.ai';
const KNOWN_MODELS = rimeDescriptor.models.map((model) => model.id);
/** Speakers are lower-case names; the router refuses anything else before sending. */
const SPEAKER = /^[A-Za-z0-9_-]{1,100}$/;

interface SpeakerEntry {
  models: string[];
  languages: string[];
}

/** Speakers by name from all-v2.json, for the models the catalog knows (retired ones are left out). */
export function readRimeCatalog(body: unknown): Map<string, SpeakerEntry> {
  if (!isRecord(body)) throw new VoiceListingError('rime', 'bad_response');
  const speakers = new Map<string, SpeakerEntry>();
  for (const model of KNOWN_MODELS) {
    const languages = body[model];
    if (!isRecord(languages)) continue;
    for (const [code, names] of Object.entries(languages)) {
      if (!Array.isArray(names)) continue;
      const language = bcp47(code) ?? UNDETERMINED_LANGUAGE;
      for (const name of names) {
        // The file lists a language code among its own speakers (e.g. "hin" under coda.hin): not a voice.
        if (typeof name !== 'string' || !SPEAKER.test(name) || name === code) continue;
        const entry = speakers.get(name) ?? { models: [], languages: [] };
        if (!entry.models.includes(model)) entry.models.push(model);
        if (!entry.languages.includes(language)) entry.languages.push(language);
        speakers.set(name, entry);
      }
    }
  }
  return speakers;
}

function detailLabels(details: unknown): Map<string, Record<string, string>> {
  const labels = new Map<string, Record<string, string>>();
  if (!Array.isArray(details)) return labels;
  for (const record of details) {
    if (!isRecord(record)) continue;
    const speaker = text(record.speaker, 100);
    if (!speaker || labels.has(speaker)) continue;
    const entry: Record<string, string> = {};
    const gender = genderLabel(record.gender);
    if (gender) entry.gender = gender;
    for (const key of ['age', 'country', 'description'] as const) {
      const value = text(record[key]);
      if (value) entry[key] = value;
    }
    labels.set(speaker, entry);
  }
  return labels;
}

export async function listRimeVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const base = settings.baseUrl ?? DEFAULT_BASE_URL;
  // Both files are public: the key is not sent where it is not needed.
  const catalog = readRimeCatalog(await fetchListingPage('rime', listingUrl(base, '/data/voices/all-v2.json'), {}, context.signal));
  let details = new Map<string, Record<string, string>>();
  try {
    details = detailLabels(await fetchListingPage('rime', listingUrl(base, '/data/voices/voice_details.json'), {}, context.signal));
  } catch (error) {
    // The details only add labels; without them the speakers are still listed (an abort still ends the listing).
    if (context.signal.aborted || (error instanceof VoiceListingError && error.failure === 'timeout')) throw error;
  }
  return [...catalog].map(([speaker, entry]) => {
    const labels = { ...details.get(speaker) };
    if (entry.languages.length > 1) labels.languages = entry.languages.join(', ');
    return {
      id: speaker,
      name: speaker.charAt(0).toUpperCase() + speaker.slice(1).replace(/_/g, ' '),
      language: entry.languages[0] ?? UNDETERMINED_LANGUAGE,
      labels,
      modelCompatibility: entry.models,
    };
  });
}
