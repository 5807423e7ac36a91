// Speechify's live voice list: GET /v1/voices answers the whole catalogue (shared voices plus the account's own)
// as one JSON array when no paging is asked for; an opt-in paged shape `{voices, has_more, next_cursor}` is
// followed to the end too. Normalized to the router's VoiceDescriptor.

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
import { speechifyDescriptor } from './speechify-catalog.js';

const DEFAULT_BASE_URL = 'https://api.speechify.ai';
const KNOWN_MODELS = new Set(speechifyDescriptor.models.map((model) => model.id));

/** Normalizes one voice; undefined for entries without an id or a name. */
export function normalizeSpeechifyVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.id, 100);
  const name = text(voice.display_name);
  if (!id || !name) return undefined;
  const labels: Record<string, string> = {};
  const gender = voice.gender === 'notSpecified' ? undefined : genderLabel(voice.gender);
  if (gender) labels.gender = gender;
  const type = text(voice.type, 20);
  if (type) labels.type = type;
  const tags = Array.isArray(voice.tags) ? voice.tags.map((tag) => text(tag, 60)).filter((tag): tag is string => Boolean(tag)) : [];
  if (tags.length > 0) labels.tags = tags.slice(0, 20).join(',');
  const models = Array.isArray(voice.models) ? voice.models.filter(isRecord).map((model) => text(model.name, 60)).filter((model): model is string => Boolean(model)) : [];
  const compatible = models.filter((model) => KNOWN_MODELS.has(model));
  const preview = previewUrl(voice.preview_audio);
  return {
    id,
    name,
    language: bcp47(voice.locale) ?? UNDETERMINED_LANGUAGE,
    labels,
    ...(preview ? { previewUrl: preview } : {}),
    modelCompatibility: compatible.length > 0 ? compatible : [...KNOWN_MODELS],
  };
}

function pageOf(body: unknown): { entries: unknown[]; next?: string } {
  if (Array.isArray(body)) return { entries: body };
  if (isRecord(body) && Array.isArray(body.voices)) {
    const next = body.has_more === true && typeof body.next_cursor === 'string' && body.next_cursor ? body.next_cursor : undefined;
    return { entries: body.voices, next };
  }
  throw new VoiceListingError('speechify', 'bad_response');
}

export async function listSpeechifyVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const headers = { authorization: `Bearer ${settings.apiKey ?? ''}` };
  const voices = new Map<string, VoiceDescriptor>();
  const maxPages = context.maxPages ?? 500;
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v1/voices');
    if (cursor) url.searchParams.set('cursor', cursor);
    const { entries, next } = pageOf(await fetchListingPage('speechify', url, headers, context.signal));
    for (const entry of entries) {
      const voice = normalizeSpeechifyVoice(entry);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
    if (!next) return [...voices.values()];
    if (next === cursor) throw new VoiceListingError('speechify', 'bad_response');
    cursor = next;
  }
  throw new VoiceListingError('speechify', 'bad_response');
}
