// LMNT's live voice list: GET /v1/ai/voice/list?owner=all (one JSON array; LMNT's list is not paged), system voices
// and the account's own, normalized to the router's VoiceDescriptor. Voices still training are left out.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import {
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
import { LMNT_API_VERSION } from './lmnt-api-types.js';
import { lmntDescriptor } from './lmnt-catalog.js';

const DEFAULT_BASE_URL = 'https://api.lmnt.com';
const ALL_MODELS = lmntDescriptor.models.map((model) => model.id);
const MAX_TAGS = 20;

/** Normalizes one listed voice; undefined for entries without an id or name, or not ready to speak. */
export function normalizeLmntVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.id, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const state = text(voice.state, 40);
  if (state !== undefined && state !== 'ready') return undefined;
  const labels: Record<string, string> = {};
  const gender = genderLabel(voice.gender);
  if (gender) labels.gender = gender;
  const owner = text(voice.owner, 20);
  // `me` is the account's own voice; other owners are LMNT's (`system`) or shared ones.
  if (owner) labels.owner = owner === 'me' ? 'account' : owner;
  const description = text(voice.description);
  if (description) labels.description = description;
  const tags = Array.isArray(voice.tags) ? voice.tags.slice(0, MAX_TAGS).map((tag) => text(tag, 40)).filter((tag) => tag !== undefined) : [];
  if (tags.length > 0) labels.tags = tags.join(', ');
  if (voice.starred === true) labels.starred = 'true';
  const preview = previewUrl(voice.preview_url);
  // LMNT voices are multilingual and carry no language field: undetermined rather than guessed.
  return { id, name, language: UNDETERMINED_LANGUAGE, labels, ...(preview ? { previewUrl: preview } : {}), modelCompatibility: ALL_MODELS };
}

export async function listLmntVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v1/ai/voice/list');
  url.searchParams.set('owner', 'all');
  const body = await fetchListingPage('lmnt', url, { 'x-api-key': settings.apiKey ?? '', 'lmnt-version': LMNT_API_VERSION }, context.signal);
  if (!Array.isArray(body)) throw new VoiceListingError('lmnt', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body) {
    const voice = normalizeLmntVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
