// Inworld's live voice list: GET /voices/v1/voices (`{voices: [...]}`, the whole list in one answer, as the
// official SDK reads it), normalized to the router's VoiceDescriptor.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import { bcp47, fetchListingPage, isRecord, listingUrl, text, UNDETERMINED_LANGUAGE, VoiceListingError, type VoiceListingContext } from '../catalog/voice-listing.js';
import { inworldDescriptor } from './inworld-catalog.js';

const DEFAULT_BASE_URL = 'https://api.inworld.ai';
const ALL_MODELS = inworldDescriptor.models.map((model) => model.id);

/** Normalizes one voice; undefined without an id. `langCode` is Inworld's EN_US style. */
export function normalizeInworldVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voiceId, 200);
  if (!id) return undefined;
  const labels: Record<string, string> = {};
  const description = text(voice.description);
  if (description) labels.description = description;
  const source = text(voice.source, 40);
  if (source) labels.source = source;
  if (Array.isArray(voice.tags)) {
    const tags = voice.tags.map((tag) => text(tag, 40)).filter(Boolean);
    if (tags.length > 0) labels.tags = tags.join(',').slice(0, 300);
    const gender = tags.find((tag) => tag === 'female' || tag === 'male');
    if (gender) labels.gender = gender;
  }
  return { id, name: text(voice.displayName) ?? id, language: bcp47(voice.langCode) ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: ALL_MODELS };
}

export async function listInworldVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/voices/v1/voices');
  const body = await fetchListingPage('inworld', url, { authorization: `Basic ${settings.apiKey ?? ''}` }, context.signal);
  if (!isRecord(body) || !Array.isArray(body.voices)) throw new VoiceListingError('inworld', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body.voices) {
    const voice = normalizeInworldVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
