// Cartesia's live voice list: GET /voices with cursor paging (`starting_after` the last id while `has_more`),
// previews expanded, the account's own voices included, normalized to the router's VoiceDescriptor.

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
import { CARTESIA_API_VERSION } from './cartesia-api-types.js';
import { cartesiaDescriptor } from './cartesia-catalog.js';

const DEFAULT_BASE_URL = 'https://api.cartesia.ai';
const MAX_PAGE_SIZE = 100;
const ALL_MODELS = cartesiaDescriptor.models.map((model) => model.id);

/** Normalizes one `/voices` entry; undefined for entries without an id or name. */
export function normalizeCartesiaVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.id, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const locales = Array.isArray(voice.locales) ? voice.locales : [];
  const language = locales.map(bcp47).find(Boolean) ?? bcp47(voice.language) ?? UNDETERMINED_LANGUAGE;
  const labels: Record<string, string> = {};
  const gender = genderLabel(voice.gender);
  if (gender) labels.gender = gender;
  for (const key of ['accent', 'tagline', 'description', 'country'] as const) {
    const value = text(voice[key]);
    if (value) labels[key] = value;
  }
  const access = text(voice.access, 20) ?? (voice.is_public === true ? 'public' : undefined);
  if (access) labels.access = access;
  if (voice.is_owner === true) labels.owner = 'account';
  const preview = previewUrl(voice.preview_file_url);
  return { id, name, language, labels, ...(preview ? { previewUrl: preview } : {}), modelCompatibility: ALL_MODELS };
}

export async function listCartesiaVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const pageSize = Math.min(MAX_PAGE_SIZE, context.pageSize ?? MAX_PAGE_SIZE);
  const maxPages = context.maxPages ?? 500;
  const headers = { authorization: `Bearer ${settings.apiKey ?? ''}`, 'cartesia-version': CARTESIA_API_VERSION };
  const voices = new Map<string, VoiceDescriptor>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/voices');
    url.searchParams.set('limit', String(pageSize));
    url.searchParams.append('expand[]', 'preview_file_url');
    if (cursor) url.searchParams.set('starting_after', cursor);
    const body = await fetchListingPage('cartesia', url, headers, context.signal);
    if (!isRecord(body) || !Array.isArray(body.data)) throw new VoiceListingError('cartesia', 'bad_response');
    let lastId: string | undefined;
    for (const entry of body.data) {
      const voice = normalizeCartesiaVoice(entry);
      if (!voice) continue;
      lastId = voice.id;
      if (!voices.has(voice.id)) voices.set(voice.id, voice);
    }
    if (body.has_more !== true) return [...voices.values()];
    // The cursor is the last voice of the page (`next_page` where the API sends it).
    const next = (typeof body.next_page === 'string' && body.next_page) || lastId;
    if (!next || next === cursor) throw new VoiceListingError('cartesia', 'bad_response');
    cursor = next;
  }
  throw new VoiceListingError('cartesia', 'bad_response');
}
