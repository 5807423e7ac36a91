// Resemble's live voice list: GET /v2/voices on the management API, paged with page / page_size until num_pages,
// normalized to the router's VoiceDescriptor. Voices still training cannot speak and are left out.

import type { VoiceDescriptor } from '../types.js';
import {
  bcp47,
  fetchListingPage,
  isRecord,
  listingUrl,
  text,
  UNDETERMINED_LANGUAGE,
  VoiceListingError,
  type VoiceListingContext,
} from '../catalog/voice-listing.js';
import { resembleDescriptor } from './resemble-catalog.js';
import type { ResembleSettings } from './resemble-settings.js';
import { RESEMBLE_DEFAULT_BASE_URL } from './resemble-settings.js';

const MAX_PAGE_SIZE = 1000;
const MIN_PAGE_SIZE = 10;
const ALL_MODELS = resembleDescriptor.models.map((model) => model.id);

/** Normalizes one voice; undefined without a uuid or name, or while it is not ready to speak. */
export function normalizeResembleVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.uuid, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const status = text(voice.voice_status, 40) ?? text(voice.status, 40);
  if (status !== undefined && status.toLowerCase() !== 'ready') return undefined;
  const labels: Record<string, string> = {};
  const languages = Array.isArray(voice.supported_languages) ? voice.supported_languages.map(bcp47).filter((tag): tag is string => Boolean(tag)) : [];
  if (languages.length > 1) labels.languages = languages.slice(0, 30).join(',');
  return { id, name, language: bcp47(voice.default_language) ?? languages[0] ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: ALL_MODELS };
}

export async function listResembleVoices(settings: ResembleSettings, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const pageSize = Math.max(MIN_PAGE_SIZE, Math.min(MAX_PAGE_SIZE, context.pageSize ?? MAX_PAGE_SIZE));
  const maxPages = context.maxPages ?? 500;
  const headers = { authorization: `Bearer ${settings.apiKey ?? ''}` };
  const voices = new Map<string, VoiceDescriptor>();
  for (let page = 1; page <= maxPages; page += 1) {
    const url = listingUrl(settings.baseUrl ?? RESEMBLE_DEFAULT_BASE_URL, '/v2/voices');
    url.searchParams.set('page', String(page));
    url.searchParams.set('page_size', String(pageSize));
    const body = await fetchListingPage('resemble', url, headers, context.signal);
    if (!isRecord(body) || body.success !== true || !Array.isArray(body.items) || typeof body.num_pages !== 'number') {
      throw new VoiceListingError('resemble', 'bad_response');
    }
    for (const entry of body.items) {
      const voice = normalizeResembleVoice(entry);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
    if (page >= body.num_pages) return [...voices.values()];
  }
  throw new VoiceListingError('resemble', 'bad_response');
}
