// Fish Audio's live voice list: the account's own voice models, GET /model?self=true paged by page_number (1-based)
// until `total` is reached, normalized to the router's VoiceDescriptor. The public community library (hundreds of
// thousands of models) is not listed: its models are still usable by id.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import {
  bcp47,
  fetchListingPage,
  genderLabel,
  isRecord,
  listingUrl,
  previewUrl,
  text,
  UNDETERMINED_LANGUAGE,
  VoiceListingError,
  type VoiceListingContext,
} from '../catalog/voice-listing.js';
import { fishDescriptor } from './fish-catalog.js';

const DEFAULT_BASE_URL = 'https://api.fish.audio';
const MAX_PAGE_SIZE = 100;
const ALL_MODELS = fishDescriptor.models.map((model) => model.id);
const GENDERS = new Set(['female', 'male', 'neutral']);
const MAX_TAGS = 20;

/** The first sample's audio URL; Fish's API lists samples as an array, its SDK types one object. */
function sampleAudio(samples: unknown): string | undefined {
  const first = Array.isArray(samples) ? samples[0] : samples;
  return isRecord(first) ? previewUrl(first.audio) : undefined;
}

/** Normalizes one `items` entry; undefined for entries without an id or title, not TTS models, or not trained. */
export function normalizeFishVoice(model: unknown): VoiceDescriptor | undefined {
  if (!isRecord(model)) return undefined;
  const id = text(model._id, 100);
  const name = text(model.title);
  if (!id || !name) return undefined;
  if (model.type !== undefined && model.type !== 'tts') return undefined;
  if (model.state !== undefined && model.state !== 'trained') return undefined;
  const languages = Array.isArray(model.languages) ? model.languages : [];
  const language = languages.map(bcp47).find(Boolean) ?? UNDETERMINED_LANGUAGE;
  const tags = Array.isArray(model.tags) ? model.tags.slice(0, MAX_TAGS).map((tag) => text(tag, 40)).filter((tag) => tag !== undefined) : [];
  const labels: Record<string, string> = { owner: 'account' };
  // Fish has no gender field; a gender word among the tags is taken as one.
  const gender = tags.map(genderLabel).find((value) => value !== undefined && GENDERS.has(value));
  if (gender) labels.gender = gender;
  if (tags.length > 0) labels.tags = tags.join(', ');
  const description = text(model.description);
  if (description) labels.description = description;
  const visibility = text(model.visibility, 20);
  if (visibility) labels.visibility = visibility;
  if (languages.length > 1) labels.languages = languages.map(bcp47).filter(Boolean).join(', ');
  const preview = sampleAudio(model.samples);
  return { id, name, language, labels, ...(preview ? { previewUrl: preview } : {}), modelCompatibility: ALL_MODELS };
}

export async function listFishVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const pageSize = Math.min(MAX_PAGE_SIZE, context.pageSize ?? MAX_PAGE_SIZE);
  const maxPages = context.maxPages ?? 500;
  const headers = { authorization: `Bearer ${settings.apiKey ?? ''}` };
  const voices = new Map<string, VoiceDescriptor>();
  let seen = 0;
  for (let pageNumber = 1; pageNumber <= maxPages; pageNumber += 1) {
    const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/model');
    url.searchParams.set('self', 'true');
    url.searchParams.set('page_size', String(pageSize));
    url.searchParams.set('page_number', String(pageNumber));
    const body = await fetchListingPage('fish', url, headers, context.signal);
    if (!isRecord(body) || !Array.isArray(body.items)) throw new VoiceListingError('fish', 'bad_response');
    for (const entry of body.items) {
      const voice = normalizeFishVoice(entry);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
    seen += body.items.length;
    const total = typeof body.total === 'number' && Number.isInteger(body.total) ? body.total : undefined;
    if (body.items.length === 0 || (total !== undefined && seen >= total)) return [...voices.values()];
  }
  throw new VoiceListingError('fish', 'bad_response');
}
