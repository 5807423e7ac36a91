// Neuphonic's live voice list: GET /voices answers every voice the key may use (stock and the account's own) as
// `{data: {voices: [...]}}` in one page; normalized to the router's VoiceDescriptor.

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
import { neuphonicBaseUrl, type NeuphonicSettings } from './neuphonic-settings.js';

const GENDERS = new Set(['female', 'male', 'neutral']);

/** Normalizes one voice; undefined without an id or a name. */
export function normalizeNeuphonicVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voice_id, 100) ?? text(voice.id, 100);
  const name = text(voice.name);
  if (!id || !name) return undefined;
  const labels: Record<string, string> = {};
  const tags = Array.isArray(voice.tags) ? voice.tags.map((tag) => text(tag, 60)).filter((tag): tag is string => Boolean(tag)) : [];
  const gender = tags.map((tag) => genderLabel(tag)).find((tag): tag is string => tag !== undefined && GENDERS.has(tag));
  if (gender) labels.gender = gender;
  const others = tags.filter((tag) => genderLabel(tag) !== gender);
  if (others.length > 0) labels.tags = others.slice(0, 20).join(',');
  const type = text(voice.type, 20);
  if (type) labels.type = type;
  return { id, name, language: bcp47(voice.lang_code) ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: ['default'] };
}

export async function listNeuphonicVoices(settings: NeuphonicSettings, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(neuphonicBaseUrl(settings.baseUrl), '/voices');
  const body = await fetchListingPage('neuphonic', url, { 'x-api-key': settings.apiKey ?? '' }, context.signal);
  if (!isRecord(body) || !isRecord(body.data) || !Array.isArray(body.data.voices)) throw new VoiceListingError('neuphonic', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body.data.voices) {
    const voice = normalizeNeuphonicVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
