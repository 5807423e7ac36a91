// Hume's live voice list: GET /v0/tts/voices for the library (provider HUME_AI) and the account's own voices
// (CUSTOM_VOICE), each paged by page_number (0-based) to total_pages, normalized to the router's VoiceDescriptor.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import {
  fetchListingPage,
  isRecord,
  listingUrl,
  text,
  UNDETERMINED_LANGUAGE,
  VoiceListingError,
  type VoiceListingContext,
} from '../catalog/voice-listing.js';
import { humeDescriptor } from './hume-catalog.js';

const DEFAULT_BASE_URL = 'https://api.hume.ai';
const MAX_PAGE_SIZE = 100;
const PROVIDERS = ['HUME_AI', 'CUSTOM_VOICE'] as const;
const ALL_MODELS = humeDescriptor.models.map((model) => model.id);

/** `compatible_octave_models` as the router's model ids: "2" or "octave-2" → `octave-2`; all models when absent. */
function compatibleModels(value: unknown): string[] {
  if (!Array.isArray(value)) return ALL_MODELS;
  const models = value
    .map((entry) => (typeof entry === 'number' ? String(entry) : text(entry, 40)))
    .map((entry) => (entry === undefined ? undefined : /^\d+$/.test(entry) ? `octave-${entry}` : entry.toLowerCase()))
    .filter((entry): entry is string => entry !== undefined && ALL_MODELS.includes(entry));
  return models.length > 0 ? [...new Set(models)] : ALL_MODELS;
}

/** Normalizes one `voices_page` entry; undefined for entries without an id or name. */
export function normalizeHumeVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.id, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const provider = voice.provider === 'CUSTOM_VOICE' ? 'CUSTOM_VOICE' : 'HUME_AI';
  // `provider` tells clients what provider_options.voice_provider the voice needs; the id addresses it.
  const labels: Record<string, string> = { provider, ...(provider === 'CUSTOM_VOICE' ? { owner: 'account' } : {}) };
  // Hume's listing carries no language or gender: undetermined rather than guessed.
  return { id, name, language: UNDETERMINED_LANGUAGE, labels, modelCompatibility: compatibleModels(voice.compatible_octave_models) };
}

export async function listHumeVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const pageSize = Math.min(MAX_PAGE_SIZE, context.pageSize ?? MAX_PAGE_SIZE);
  const maxPages = context.maxPages ?? 500;
  const headers = { 'x-hume-api-key': settings.apiKey ?? '' };
  const voices = new Map<string, VoiceDescriptor>();
  let pages = 0;
  for (const provider of PROVIDERS) {
    for (let pageNumber = 0; ; pageNumber += 1) {
      if (++pages > maxPages) throw new VoiceListingError('hume', 'bad_response');
      const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v0/tts/voices');
      url.searchParams.set('provider', provider);
      url.searchParams.set('page_number', String(pageNumber));
      url.searchParams.set('page_size', String(pageSize));
      const body = await fetchListingPage('hume', url, headers, context.signal);
      if (!isRecord(body) || !Array.isArray(body.voices_page)) throw new VoiceListingError('hume', 'bad_response');
      for (const entry of body.voices_page) {
        const voice = normalizeHumeVoice(entry);
        if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
      }
      const totalPages = typeof body.total_pages === 'number' && Number.isInteger(body.total_pages) ? body.total_pages : undefined;
      // total_pages ends the listing; an empty page ends it too (where the total is absent, as the SDK's pager does).
      if (body.voices_page.length === 0 || (totalPages !== undefined && pageNumber + 1 >= totalPages)) break;
    }
  }
  return [...voices.values()];
}
