// Deepgram's live voice list: GET /v1/models (unpaged) returns every TTS model; each one is a voice of an Aura
// generation. Normalized to the router's VoiceDescriptor: model = architecture (`aura-2`), voice = the rest
// of the canonical name (`thalia-en`), so the mapping composes the same upstream model back.

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
import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';

const DEFAULT_BASE_URL = 'https://api.deepgram.com';
const VOICE_PATTERN = /^[a-z]+-[a-z]{2}$/;

/** Normalizes one `tts` entry; undefined for entries that are not `<architecture>-<name>-<lang>`. */
export function normalizeDeepgramVoice(model: unknown): VoiceDescriptor | undefined {
  if (!isRecord(model)) return undefined;
  const canonical = text(model.canonical_name, 100);
  const architecture = text(model.architecture, 40);
  if (!canonical || !architecture || !canonical.startsWith(`${architecture}-`)) return undefined;
  const id = canonical.slice(architecture.length + 1);
  if (!VOICE_PATTERN.test(id)) return undefined;
  const metadata = isRecord(model.metadata) ? model.metadata : {};
  const labels: Record<string, string> = { family: 'aura' };
  const tags = Array.isArray(metadata.tags) ? metadata.tags : [];
  for (const tag of tags) {
    const gender = genderLabel(tag);
    if (gender === 'female' || gender === 'male' || gender === 'neutral') labels.gender = gender;
  }
  const accent = text(metadata.accent, 60);
  if (accent) labels.accent = accent;
  const age = text(metadata.age, 40);
  if (age) labels.age = age;
  const languages = Array.isArray(model.languages) ? model.languages : [];
  const language = languages.map(bcp47).find((tag) => tag && tag.includes('-')) ?? bcp47(languages[0]) ?? bcp47(id.slice(-2)) ?? UNDETERMINED_LANGUAGE;
  const name = text(model.name, 100) ?? id;
  const preview = previewUrl(metadata.sample);
  return {
    id,
    name: name[0]!.toUpperCase() + name.slice(1),
    language,
    labels,
    ...(preview ? { previewUrl: preview } : {}),
    modelCompatibility: [architecture],
  };
}

export async function listDeepgramVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v1/models');
  const body = await fetchListingPage('deepgram', url, { authorization: `Token ${settings.apiKey ?? ''}` }, context.signal);
  if (!isRecord(body) || !Array.isArray(body.tts)) throw new VoiceListingError('deepgram', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body.tts) {
    const voice = normalizeDeepgramVoice(entry);
    if (!voice) continue;
    const existing = voices.get(voice.id);
    // The same name-language in two generations (asteria-en in aura and aura-2) is one voice with two models.
    if (existing) {
      for (const model of voice.modelCompatibility) if (!existing.modelCompatibility.includes(model)) existing.modelCompatibility.push(model);
    } else {
      voices.set(voice.id, voice);
    }
  }
  return [...voices.values()];
}
