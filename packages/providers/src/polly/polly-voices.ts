// Polly's live voice list: DescribeVoices (GET /v1/voices, SigV4-signed) paged with NextToken to the end, with
// additional language codes, normalized to the router's VoiceDescriptor (models = the engines a voice supports).

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
import { pollyDefaultEndpoint, type PollySettings } from './polly-settings.js';
import { signPollyRequest } from './polly-signing.js';

const ENGINES = new Set(['standard', 'neural', 'long-form', 'generative']);

/** Normalizes one DescribeVoices entry; undefined for entries without an id. */
export function normalizePollyVoice(voice: unknown): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.Id, 100);
  if (!id) return undefined;
  const labels: Record<string, string> = {};
  const gender = genderLabel(voice.Gender);
  if (gender) labels.gender = gender;
  const languageName = text(voice.LanguageName, 100);
  if (languageName) labels.language_name = languageName;
  const additional = Array.isArray(voice.AdditionalLanguageCodes) ? voice.AdditionalLanguageCodes.map(bcp47).filter(Boolean) : [];
  if (additional.length > 0) labels.additional_languages = additional.join(',');
  const engines = Array.isArray(voice.SupportedEngines) ? voice.SupportedEngines.filter((engine): engine is string => typeof engine === 'string' && ENGINES.has(engine)) : [];
  return {
    id,
    name: text(voice.Name, 100) ?? id,
    language: bcp47(voice.LanguageCode) ?? UNDETERMINED_LANGUAGE,
    labels,
    modelCompatibility: engines,
  };
}

export async function listPollyVoices(settings: PollySettings, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const region = settings.region ?? '';
  const base = settings.endpoint ?? pollyDefaultEndpoint(region);
  const maxPages = context.maxPages ?? 500;
  const seenTokens = new Set<string>();
  const voices = new Map<string, VoiceDescriptor>();
  let token: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const url = listingUrl(base, '/v1/voices');
    url.searchParams.set('IncludeAdditionalLanguageCodes', 'true');
    if (token) url.searchParams.set('NextToken', token);
    const headers = await signPollyRequest(
      { method: 'GET', url, headers: {}, body: '' },
      { accessKeyId: settings.accessKeyId ?? '', secretAccessKey: settings.secretAccessKey ?? '', sessionToken: settings.sessionToken || undefined, region },
    );
    const body = await fetchListingPage('polly', url, headers, context.signal);
    if (!isRecord(body) || !Array.isArray(body.Voices)) throw new VoiceListingError('polly', 'bad_response');
    for (const entry of body.Voices) {
      const voice = normalizePollyVoice(entry);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
    const next = typeof body.NextToken === 'string' && body.NextToken ? body.NextToken : undefined;
    if (!next) return [...voices.values()];
    if (seenTokens.has(next)) throw new VoiceListingError('polly', 'bad_response');
    seenTokens.add(next);
    token = next;
  }
  throw new VoiceListingError('polly', 'bad_response');
}
