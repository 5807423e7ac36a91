// Murf's live voice list: GET /v1/speech/voices?model=FALCON and ?model=GEN2 (each one whole array, no paging),
// merged by voice id so each voice lists the models it works with, normalized to the router's VoiceDescriptor.

import type { HttpProviderConfig } from '../provider-module.js';
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

const DEFAULT_BASE_URL = 'https://api.murf.ai';
const MODELS = ['FALCON', 'GEN2'] as const;

/** Normalizes one `/v1/speech/voices` entry; undefined for entries without an id. */
export function normalizeMurfVoice(voice: unknown, modelId: string): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voiceId, 100);
  if (!id) return undefined;
  const name = text(voice.displayName) ?? id;
  const labels: Record<string, string> = {};
  const gender = genderLabel(voice.gender === 'NonBinary' ? 'nonbinary' : voice.gender);
  if (gender) labels.gender = gender;
  const description = text(voice.description);
  if (description) labels.description = description;
  const locales = isRecord(voice.supportedLocales) ? Object.keys(voice.supportedLocales).map(bcp47).filter(Boolean) : [];
  if (locales.length > 1) labels.locales = locales.join(',').slice(0, 300);
  const styles = isRecord(voice.supportedLocales) && isRecord(voice.supportedLocales[String(voice.locale)])
    ? (voice.supportedLocales[String(voice.locale)] as Record<string, unknown>).availableStyles
    : voice.availableStyles;
  if (Array.isArray(styles)) {
    const names = styles.map((style) => text(style, 40)).filter(Boolean);
    if (names.length > 0) labels.styles = names.join(',').slice(0, 300);
  }
  return { id, name, language: bcp47(voice.locale) ?? locales[0] ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: [modelId] };
}

export async function listMurfVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const headers = { 'api-key': settings.apiKey ?? '' };
  const voices = new Map<string, VoiceDescriptor>();
  for (const modelId of MODELS) {
    const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v1/speech/voices');
    url.searchParams.set('model', modelId);
    const body = await fetchListingPage('murf', url, headers, context.signal);
    if (!Array.isArray(body)) throw new VoiceListingError('murf', 'bad_response');
    for (const entry of body) {
      const voice = normalizeMurfVoice(entry, modelId);
      if (!voice) continue;
      const known = voices.get(voice.id);
      if (known) known.modelCompatibility = [...known.modelCompatibility, modelId];
      else voices.set(voice.id, voice);
    }
  }
  return [...voices.values()];
}
