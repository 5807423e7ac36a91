// Google's live voice list: GET /v1/voices (one list, no paging), normalized to the router's VoiceDescriptor.

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
import { ProviderError } from '../errors.js';
import type { VoiceDescriptor } from '../types.js';
import { GOOGLE_SSML_GENDERS } from './google-api-types.js';
import { tokenSourceFor } from './google-auth.js';
import { familyModelOf, googleDescriptor } from './google-catalog.js';
import { GOOGLE_DEFAULT_BASE_URL, readServiceAccountKey, type GoogleSettings } from './google-settings.js';

const ALL_MODELS = googleDescriptor.models.map((model) => model.id);
const GENDER_NAMES = new Map<number, string>(Object.entries(GOOGLE_SSML_GENDERS).map(([name, value]) => [value, name]));

export function normalizeGoogleVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.name, 100);
  if (!id) return undefined;
  const codes = Array.isArray(voice.languageCodes) ? voice.languageCodes : [];
  const labels: Record<string, string> = {};
  const gender = genderLabel(typeof voice.ssmlGender === 'number' ? GENDER_NAMES.get(voice.ssmlGender) : voice.ssmlGender);
  if (gender && gender !== 'ssml_voice_gender_unspecified') labels.gender = gender;
  const family = familyModelOf(id);
  if (family) labels.family = family;
  if (typeof voice.naturalSampleRateHertz === 'number') labels.natural_sample_rate = String(voice.naturalSampleRateHertz);
  return { id, name: id, language: codes.map(bcp47).find(Boolean) ?? UNDETERMINED_LANGUAGE, labels, modelCompatibility: family ? [family] : ALL_MODELS };
}

async function authHeaders(settings: GoogleSettings, signal: AbortSignal): Promise<Record<string, string>> {
  if (settings.apiKey) return { 'x-goog-api-key': settings.apiKey };
  if (!settings.credentialsFile) throw new VoiceListingError('google', 'auth_failed');
  const path = settings.credentialsFile;
  try {
    return { authorization: `Bearer ${await tokenSourceFor(path, () => readServiceAccountKey(path)).accessToken(signal)}` };
  } catch (error) {
    if (error instanceof ProviderError) {
      throw new VoiceListingError('google', error.category === 'upstream_auth_failed' ? 'auth_failed' : 'network_error', error.statusCode ?? undefined);
    }
    throw error;
  }
}

export async function listGoogleVoices(settings: GoogleSettings, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? GOOGLE_DEFAULT_BASE_URL, '/v1/voices');
  const body = await fetchListingPage('google', url, await authHeaders(settings, context.signal), context.signal);
  if (!isRecord(body) || (body.voices !== undefined && !Array.isArray(body.voices))) throw new VoiceListingError('google', 'bad_response');
  const voices = new Map<string, VoiceDescriptor>();
  for (const entry of (body.voices as unknown[] | undefined) ?? []) {
    const voice = normalizeGoogleVoice(entry);
    if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
  }
  return [...voices.values()];
}
