// Azure's live voice list: GET /cognitiveservices/voices/list (one JSON array, no paging), normalized to the
// router's VoiceDescriptor (id = ShortName, the name SSML takes).

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
import type { VoiceDescriptor } from '../types.js';
import { azureOrigin, type AzureSettings } from './azure-settings.js';

/** Normalizes one voices/list entry; undefined for entries without a ShortName. */
export function normalizeAzureVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.ShortName, 200);
  if (!id) return undefined;
  const name = text(voice.DisplayName) ?? text(voice.LocalName) ?? id;
  const labels: Record<string, string> = {};
  const gender = genderLabel(voice.Gender);
  if (gender) labels.gender = gender;
  for (const [label, key] of [['type', 'VoiceType'], ['status', 'Status'], ['local_name', 'LocalName'], ['locale_name', 'LocaleName']] as const) {
    const value = text(voice[key]);
    if (value) labels[label] = value;
  }
  if (Array.isArray(voice.StyleList)) {
    const styles = voice.StyleList.map((style) => text(style, 40)).filter(Boolean);
    if (styles.length > 0) labels.styles = styles.join(',').slice(0, 300);
  }
  return { id, name, language: bcp47(voice.Locale) ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: ['neural'] };
}

export async function listAzureVoices(settings: AzureSettings, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(azureOrigin(settings), '/cognitiveservices/voices/list');
  const body = await fetchListingPage('azure', url, { 'ocp-apim-subscription-key': settings.apiKey ?? '' }, context.signal);
  if (!Array.isArray(body)) throw new VoiceListingError('azure', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of body) {
    const voice = normalizeAzureVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
