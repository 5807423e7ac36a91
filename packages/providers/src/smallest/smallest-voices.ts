// Smallest.ai's live voice list: GET /waves/v1/lightning-v3.1/get_voices (both pools, one page, camelCase keys),
// normalized to the router's VoiceDescriptor.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import {
  fetchListingPage,
  genderLabel,
  isRecord,
  listingUrl,
  text,
  UNDETERMINED_LANGUAGE,
  VoiceListingError,
  type VoiceListingContext,
} from '../catalog/voice-listing.js';
import { smallestDescriptor } from './smallest-catalog.js';

const DEFAULT_BASE_URL = 'https://api.smallest.ai';
const ALL_MODELS = smallestDescriptor.models.map((model) => model.id);
/** Tags name languages in English; the first one becomes the voice's BCP 47 language. */
const LANGUAGE_CODES: Record<string, string> = {
  english: 'en', hindi: 'hi', spanish: 'es', french: 'fr', german: 'de', italian: 'it', dutch: 'nl', swedish: 'sv', portuguese: 'pt',
  polish: 'pl', russian: 'ru', marathi: 'mr', gujarati: 'gu', punjabi: 'pa', bengali: 'bn', odia: 'or', tamil: 'ta', telugu: 'te',
  kannada: 'kn', malayalam: 'ml', greek: 'el', finnish: 'fi', norwegian: 'no', chinese: 'zh', japanese: 'ja', korean: 'ko',
  indonesian: 'id', malay: 'ms', vietnamese: 'vi', turkish: 'tr', arabic: 'ar',
};

function languageCode(value: unknown): string | undefined {
  const name = text(value, 40)?.toLowerCase();
  if (!name) return undefined;
  return Object.hasOwn(LANGUAGE_CODES, name) ? LANGUAGE_CODES[name] : /^[a-z]{2}$/.test(name) ? name : undefined;
}

/** Normalizes one voice; undefined without an id or a name. */
export function normalizeSmallestVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voiceId, 100);
  const name = text(voice.displayName);
  if (!id || !name) return undefined;
  const tags = isRecord(voice.tags) ? voice.tags : {};
  const labels: Record<string, string> = {};
  const gender = genderLabel(tags.gender);
  if (gender) labels.gender = gender;
  for (const key of ['accent', 'age'] as const) {
    const value = text(tags[key], 60);
    if (value) labels[key] = value;
  }
  for (const key of ['emotions', 'usecases'] as const) {
    const values = Array.isArray(tags[key]) ? tags[key].map((entry) => text(entry, 40)).filter((entry): entry is string => Boolean(entry)) : [];
    if (values.length > 0) labels[key] = values.slice(0, 20).join(',');
  }
  const languages = Array.isArray(tags.language) ? tags.language.map(languageCode).filter((code): code is string => Boolean(code)) : [];
  if (languages.length > 1) labels.languages = languages.join(',');
  return { id, name, language: languages[0] ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: ALL_MODELS };
}

export async function listSmallestVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/waves/v1/lightning-v3.1/get_voices');
  const body = await fetchListingPage('smallest', url, { authorization: `Bearer ${settings.apiKey ?? ''}` }, context.signal);
  if (!isRecord(body) || !Array.isArray(body.voices)) throw new VoiceListingError('smallest', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body.voices) {
    const voice = normalizeSmallestVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
