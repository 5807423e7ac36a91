// Shared pieces of the live voice listings: the context a listing runs in, its one error type, and the
// normalization helpers every provider's listing uses (BCP 47 tags, gender labels, bounded strings).

import type { VoiceDescriptor } from '../types.js';

export interface VoiceListingContext {
  /** Aborts the whole listing (all pages). */
  signal: AbortSignal;
  /** Items per page; the provider's maximum when absent. Tests use small pages to exercise paging. */
  pageSize?: number;
  /** Stops a listing that never ends (a provider repeating a cursor). Default 500 pages. */
  maxPages?: number;
}

/** Why a listing failed, as a router-written category; never carries upstream text. */
export type VoiceListingFailure = 'auth_failed' | 'rate_limited' | 'server_error' | 'rejected' | 'bad_response' | 'network_error' | 'timeout';

export class VoiceListingError extends Error {
  constructor(
    readonly provider: string,
    readonly failure: VoiceListingFailure,
    readonly statusCode?: number,
  ) {
    super(`${provider} voice listing failed: ${failure}${statusCode ? ` (HTTP ${statusCode})` : ''}`);
    this.name = 'VoiceListingError';
  }
}

export type VoiceLister<TSettings> = (settings: TSettings, context: VoiceListingContext) => Promise<VoiceDescriptor[]>;

function failureForStatus(status: number): VoiceListingFailure {
  if (status === 401 || status === 403) return 'auth_failed';
  if (status === 429) return 'rate_limited';
  if (status >= 500 || status === 408) return 'server_error';
  return 'rejected';
}

/** GETs one page as JSON. The body of a refusal is drained and dropped: it never reaches a log or a client. */
export async function fetchListingPage(provider: string, url: URL, headers: Record<string, string>, signal: AbortSignal): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json', ...headers }, signal, redirect: 'error' });
  } catch (error) {
    if (signal.aborted) throw new VoiceListingError(provider, 'timeout');
    throw new VoiceListingError(provider, error instanceof Error && error.name === 'TimeoutError' ? 'timeout' : 'network_error');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new VoiceListingError(provider, failureForStatus(response.status), response.status);
  }
  try {
    return (await response.json()) as unknown;
  } catch {
    throw new VoiceListingError(provider, signal.aborted ? 'timeout' : 'bad_response', response.status);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_TEXT = 300;

/** A string field from a provider, trimmed and bounded; undefined when absent or not a non-empty string. */
export function text(value: unknown, max = MAX_TEXT): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed ? trimmed.slice(0, max) : undefined;
}

/** A BCP 47 tag in canonical case (`en-us` → `en-US`, `EN` → `en`), or undefined when the input is not one. */
export function bcp47(value: unknown): string | undefined {
  const candidate = text(value, 35)?.replace(/_/g, '-');
  if (!candidate) return undefined;
  try {
    return Intl.getCanonicalLocales(candidate)[0];
  } catch {
    return undefined;
  }
}

/** `und` (BCP 47 "undetermined") when a provider says nothing about a voice's language. */
export const UNDETERMINED_LANGUAGE = 'und';

/** One `gender` vocabulary across providers, so `?gender=female` finds every provider's female voices. */
export function genderLabel(value: unknown): string | undefined {
  const raw = text(value, 40)?.toLowerCase();
  if (!raw) return undefined;
  if (raw === 'female' || raw === 'feminine' || raw === 'woman' || raw === 'f') return 'female';
  if (raw === 'male' || raw === 'masculine' || raw === 'man' || raw === 'm') return 'male';
  if (raw === 'neutral' || raw === 'gender_neutral' || raw === 'non-binary' || raw === 'nonbinary') return 'neutral';
  return raw;
}

/** Only http(s) URLs are passed on as previews. */
export function previewUrl(value: unknown): string | undefined {
  const candidate = text(value, 2000);
  if (!candidate) return undefined;
  try {
    const url = new URL(candidate);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Joins a base URL (with or without a trailing slash) and an absolute path. */
export function listingUrl(baseUrl: string, path: string): URL {
  return new URL(baseUrl.replace(/\/+$/, '') + path);
}
