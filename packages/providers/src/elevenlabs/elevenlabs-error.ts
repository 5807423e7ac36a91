// Classifies ElevenLabs error answers: `{detail: {status|code, message}}`, FastAPI validation arrays
// (`{detail: [{loc, msg}]}`) and routing 404s (`{detail: "Not Found"}`). Messages are never read.

import type { RequestField } from '../errors.js';
import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';
import { elevenLabsProviderOptions } from './elevenlabs-speech-model.js';

/** Slugs that pin a refusal on one field of the client's request. */
const SLUG_FIELDS: Record<string, RequestField> = {
  voice_not_found: 'voice',
  invalid_voice_id: 'voice',
  max_character_limit_exceeded: 'input',
  text_too_long: 'input',
  model_not_found: 'model',
  invalid_model_id: 'model',
};

const QUOTA_SLUGS = new Set(['quota_exceeded', 'insufficient_credits', 'payment_required']);

function optionField(name: unknown): RequestField | undefined {
  return typeof name === 'string' && Object.hasOwn(elevenLabsProviderOptions.shape, name) ? `provider_options.${name}` : undefined;
}

/** Maps a FastAPI `loc` (e.g. ['body', 'voice_settings', 'speed']) onto the router's request fields. */
function fieldFromLocation(location: unknown): RequestField | undefined {
  if (!Array.isArray(location)) return undefined;
  const [where, first, second] = location as unknown[];
  if (where === 'path' && first === 'voice_id') return 'voice';
  if (where === 'query') return first === 'output_format' ? 'response_format' : optionField(first);
  if (where !== 'body') return undefined;
  if (first === 'text') return 'input';
  if (first === 'model_id') return 'model';
  if (first === 'voice_settings') return second === 'speed' ? 'speed' : (optionField(second) ?? 'provider_options');
  return optionField(first);
}

export function classifyElevenLabsError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  const detail = isObject(parsed) ? parsed.detail : undefined;
  if (Array.isArray(detail)) {
    const field = fieldFromLocation(isObject(detail[0]) ? detail[0].loc : undefined);
    return field ? { category: 'invalid_request', field } : { category: 'invalid_request' };
  }
  const slug = isObject(detail) ? (stringField(detail, 'status') ?? stringField(detail, 'code')) : undefined;
  if (slug !== undefined && QUOTA_SLUGS.has(slug)) return { category: 'upstream_quota_exceeded' };
  if (slug !== undefined && Object.hasOwn(SLUG_FIELDS, slug)) return { category: 'invalid_request', field: SLUG_FIELDS[slug] };
  // Other 400s and 422s are about the request's values; a 404 without a known slug is a wrong route.
  if ((status === 400 || status === 422) && slug !== undefined) return { category: 'invalid_request' };
  return {};
}
