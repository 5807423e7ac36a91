// Classifies Cartesia error answers: `{error_code, title, message, request_id}` from API version 2026-03-01
// on, `Title: Message` plain text before. Only error_code and the title are compared against known values.

import type { RequestField } from '../errors.js';
import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, slugOf, stringField } from '../shared/error-body.js';

/** error_code values and title slugs that pin a refusal on one field of the client's request. */
const CODE_FIELDS: Record<string, RequestField> = {
  voice_not_found: 'voice',
  model_not_found: 'model',
  model_sunsetted: 'model',
  transcript_too_long: 'input',
};

/** Identifies the error from its machine code, or from a slug of its title when error_code is null. */
function identify(bodyText: string): string | undefined {
  const parsed = parseJson(bodyText);
  if (isObject(parsed)) {
    const title = stringField(parsed, 'title');
    return stringField(parsed, 'error_code') ?? (title === undefined ? undefined : slugOf(title));
  }
  if (parsed !== undefined) return undefined;
  const colon = bodyText.indexOf(':');
  return colon > 0 ? slugOf(bodyText.slice(0, colon)) : undefined;
}

export function classifyCartesiaError(status: number, bodyText: string): UpstreamErrorClassification {
  const code = identify(bodyText);
  if (code !== undefined && Object.hasOwn(CODE_FIELDS, code)) return { category: 'invalid_request', field: CODE_FIELDS[code] };
  if (code === 'insufficient_credits') return { category: 'upstream_quota_exceeded' };
  // The router always sends a valid version header; refusing it is the router's problem, not the client's.
  if (code?.includes('cartesia_version')) return { category: 'upstream_rejected_request' };
  // The router builds a well-formed body, so a 400 or 422 comes from values the client chose (model id,
  // language, emotion...). A 404 without a known code is a wrong route: the status category says so.
  if (status === 400 || status === 422) return { category: 'invalid_request' };
  return {};
}
