// MiniMax's live voice list: POST /v1/get_voice {"voice_type": "all"} answers system, cloned and generated voices
// in one body (no paging), normalized to the router's VoiceDescriptor. A non-zero base_resp in a 200 is a failure.

import type { HttpProviderConfig } from '../provider-module.js';
import type { VoiceDescriptor } from '../types.js';
import { isRecord, listingUrl, text, UNDETERMINED_LANGUAGE, VoiceListingError, type VoiceListingContext, type VoiceListingFailure } from '../catalog/voice-listing.js';
import { classifyMiniMaxError } from './minimax-error.js';
import { miniMaxDescriptor } from './minimax-catalog.js';

const DEFAULT_BASE_URL = 'https://api.minimax.io';
const ALL_MODELS = miniMaxDescriptor.models.map((model) => model.id);
const GROUPS = [['system_voice', 'system'], ['voice_cloning', 'cloned'], ['voice_generation', 'generated']] as const;
const LIMIT_BYTES = 4 * 1024 * 1024;

/** System voice ids start with their language (`English_...`, `Japanese_...`); Chinese ones are lower-case pinyin. */
function languageOf(id: string, type: string): string {
  const prefix = id.split('_')[0]!;
  const known: Record<string, string> = { English: 'en', Japanese: 'ja', Korean: 'ko', Spanish: 'es', French: 'fr', German: 'de', Portuguese: 'pt', Italian: 'it', Russian: 'ru', Arabic: 'ar', Chinese: 'zh', Cantonese: 'yue' };
  if (Object.hasOwn(known, prefix)) return known[prefix]!;
  // Only system voices follow the pinyin naming; a clone's id is whatever its owner chose.
  return type === 'system' && /^[a-z]+(-[a-z0-9]+)+$/.test(id) ? 'zh' : UNDETERMINED_LANGUAGE;
}

export function normalizeMiniMaxVoice(voice: unknown, type: string): VoiceDescriptor | undefined {
  if (!isRecord(voice)) return undefined;
  const id = text(voice.voice_id, 200);
  if (!id) return undefined;
  const labels: Record<string, string> = { type };
  const description = Array.isArray(voice.description) ? voice.description.map((part) => text(part)).filter(Boolean).join(' ') : text(voice.description);
  if (description) labels.description = description.slice(0, 300);
  return { id, name: text(voice.voice_name) ?? id, language: languageOf(id, type), labels, modelCompatibility: ALL_MODELS };
}

function failureOf(status: number, bodyText: string): VoiceListingFailure {
  const classification = classifyMiniMaxError(status, bodyText);
  const category = classification.category ?? (status >= 500 ? 'upstream_server_error' : undefined);
  if (category === 'upstream_auth_failed' || status === 401 || status === 403) return 'auth_failed';
  if (category === 'upstream_rate_limited' || status === 429) return 'rate_limited';
  if (category === 'upstream_server_error') return 'server_error';
  return status >= 200 && status < 300 ? 'bad_response' : 'rejected';
}

export async function listMiniMaxVoices(settings: HttpProviderConfig, context: VoiceListingContext): Promise<VoiceDescriptor[]> {
  const url = listingUrl(settings.baseUrl ?? DEFAULT_BASE_URL, '/v1/get_voice');
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.apiKey ?? ''}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ voice_type: 'all' }),
      signal: context.signal,
      redirect: 'error',
    });
  } catch (error) {
    if (context.signal.aborted) throw new VoiceListingError('minimax', 'timeout');
    throw new VoiceListingError('minimax', error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error');
  }
  let bodyText: string;
  try {
    bodyText = await response.text();
  } catch {
    throw new VoiceListingError('minimax', context.signal.aborted ? 'timeout' : 'network_error', response.status);
  }
  if (bodyText.length > LIMIT_BYTES) throw new VoiceListingError('minimax', 'bad_response', response.status);
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    body = undefined;
  }
  const code = isRecord(body) && isRecord(body.base_resp) ? body.base_resp.status_code : undefined;
  // The body is only classified by its codes; it never reaches the error.
  if (!response.ok || (code !== undefined && code !== 0)) throw new VoiceListingError('minimax', failureOf(response.status, bodyText), response.status);
  if (!isRecord(body)) throw new VoiceListingError('minimax', 'bad_response', response.status);
  const voices = new Map<string, VoiceDescriptor>();
  for (const [field, type] of GROUPS) {
    const group = body[field];
    if (!Array.isArray(group)) continue;
    for (const entry of group) {
      const voice = normalizeMiniMaxVoice(entry, type);
      if (voice && !voices.has(voice.id)) voices.set(voice.id, voice);
    }
  }
  return [...voices.values()];
}
