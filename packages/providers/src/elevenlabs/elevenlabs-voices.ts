// ElevenLabs' live voice list: GET /v2/voices paged with next_page_token to the end (the account's premade,
// cloned, generated and professional voices), normalized to the router's VoiceDescriptor.

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
import { elevenLabsDescriptor } from './elevenlabs-catalog.js';

const DEFAULT_BASE_URL = 'https://api.elevenlabs.io';
const MAX_PAGE_SIZE = 100;
const ALL_MODELS = elevenLabsDescriptor.models.map((model) => model.id);

/** The voice's main language: its first verified locale, else a `language` label; `und` when unknown. */
function languageOf(voice: Record<string, unknown>, labels: Record<string, unknown>): string {
  const verified = Array.isArray(voice.verified_languages) ? voice.verified_languages.filter(isRecord) : [];
  for (const entry of verified) {
    const tag = bcp47(entry.locale) ?? bcp47(entry.language);
    if (tag) return tag;
  }
  return bcp47(labels.language) ?? UNDETERMINED_LANGUAGE;
}

/** Normalizes one `/v2/voices` entry; undefined for entries without an id or name. */
export function normalizeElevenLabsVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voice_id, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const rawLabels = isRecord(voice.labels) ? voice.labels : {};
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(rawLabels).slice(0, 30)) {
    const label = text(value, 100);
    if (label && /^[a-z0-9_ -]{1,40}$/i.test(key)) labels[key.toLowerCase()] = label;
  }
  const gender = genderLabel(rawLabels.gender);
  if (gender) labels.gender = gender;
  const category = text(voice.category, 40);
  if (category) labels.category = category;
  if (voice.is_owner === true) labels.owner = 'account';
  const description = text(voice.description);
  if (description && !labels.description) labels.description = description;
  const verified = Array.isArray(voice.verified_languages) ? voice.verified_languages.filter(isRecord) : [];
  const preview = previewUrl(voice.preview_url) ?? verified.map((entry) => previewUrl(entry.preview_url)).find(Boolean);
  return {
    id,
    name,
    language: languageOf(voice, rawLabels),
    labels,
    ...(preview ? { previewUrl: preview } : {}),
    // Every ElevenLabs voice works with every text-to-speech model (high_quality_base_model_ids only ranks them).
    modelCompatibility: ALL_MODELS,
  };
}

export async function listElevenLabsVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const pageSize = Math.min(MAX_PAGE_SIZE, context.pageSize ?? MAX_PAGE_SIZE);
  const maxPages = context.maxPages ?? 500;
  const seenTokens = new Set<string>();
  const voices = new Map<string, VoiceDescriptor>();
  let token: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v2/voices');
    url.searchParams.set('page_size', String(pageSize));
    url.searchParams.set('include_total_count', 'false');
    if (token) url.searchParams.set('next_page_token', token);
    const body = await fetchListingPage('elevenlabs', url, { 'xi-api-key': settings.apiKey ?? '' }, context.signal);
    if (!isRecord(body) || !Array.isArray(body.voices)) throw new VoiceListingError('elevenlabs', 'bad_response');
    for (const entry of body.voices) {
      const voice = normalizeElevenLabsVoice(entry);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
    const next = typeof body.next_page_token === 'string' && body.next_page_token ? body.next_page_token : undefined;
    if (body.has_more !== true || !next) return [...voices.values()];
    // A token seen before would loop forever: the listing is incomplete, so it is not a good list.
    if (seenTokens.has(next)) throw new VoiceListingError('elevenlabs', 'bad_response');
    seenTokens.add(next);
    token = next;
  }
  throw new VoiceListingError('elevenlabs', 'bad_response');
}
