// Classifies Google's error answers: google.rpc.Status as `{"error": {"code", "message", "status", "details"}}`.
// Only `status` (a canonical code name), ErrorInfo `reason` and BadRequest field violations' `field` are
// compared to known values.

import type { RequestField } from '../errors.js';
import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';

/** Request fields Google may name in a BadRequest field violation, as the router's request fields. */
const FIELD_VIOLATIONS: Record<string, RequestField> = {
  'voice.name': 'voice',
  'voice.language_code': 'voice',
  'voice.languageCode': 'voice',
  'input.text': 'input',
  'audio_config.speaking_rate': 'speed',
  'audioConfig.speakingRate': 'speed',
};

/** ErrorInfo reasons that mean the operator's credentials do not work (Google sends a bad key as a 400). */
const CREDENTIAL_REASONS = new Set(['API_KEY_INVALID', 'API_KEY_EXPIRED', 'API_KEY_SERVICE_BLOCKED', 'API_KEY_HTTP_REFERRER_BLOCKED', 'API_KEY_IP_ADDRESS_BLOCKED']);
/** ErrorInfo reasons that mean the operator's project cannot use the API. */
const PROJECT_REASONS = new Set(['SERVICE_DISABLED', 'BILLING_DISABLED', 'CONSUMER_INVALID']);

function parse(bodyText: string): { status?: string; field?: RequestField; reason?: 'credentials' | 'project' } {
  const parsed = parseJson(bodyText);
  if (!isObject(parsed) || !isObject(parsed.error)) return {};
  const status = stringField(parsed.error, 'status');
  let field: RequestField | undefined;
  let reason: 'credentials' | 'project' | undefined;
  const details = Array.isArray(parsed.error.details) ? parsed.error.details : [];
  for (const detail of details) {
    const reasonCode = isObject(detail) ? stringField(detail, 'reason') : undefined;
    if (reasonCode !== undefined && CREDENTIAL_REASONS.has(reasonCode)) reason = 'credentials';
    else if (reasonCode !== undefined && PROJECT_REASONS.has(reasonCode)) reason ??= 'project';
    const violations = isObject(detail) && Array.isArray(detail.fieldViolations) ? detail.fieldViolations : [];
    for (const violation of violations) {
      const name = isObject(violation) ? stringField(violation, 'field') : undefined;
      if (name !== undefined && Object.hasOwn(FIELD_VIOLATIONS, name)) field ??= FIELD_VIOLATIONS[name];
    }
  }
  return { status, field, reason };
}

export function classifyGoogleError(status: number, bodyText: string): UpstreamErrorClassification {
  const error = parse(bodyText);
  if (error.reason === 'credentials') return { category: 'upstream_auth_failed' };
  if (error.reason === 'project') return { category: 'upstream_rejected_request' };
  // A disabled API or billing account (FAILED_PRECONDITION) is the operator's account, not the client.
  if (error.status === 'FAILED_PRECONDITION') return { category: 'upstream_rejected_request' };
  // The router builds a valid request; INVALID_ARGUMENT comes from values the client chose (voice, language,
  // text over 5,000 bytes, an option out of range).
  if (error.status === 'INVALID_ARGUMENT' || status === 400) return { category: 'invalid_request', ...(error.field ? { field: error.field } : {}) };
  if (error.status === 'RESOURCE_EXHAUSTED') return { category: 'upstream_rate_limited' };
  if (error.status === 'UNAUTHENTICATED' || error.status === 'PERMISSION_DENIED') return { category: 'upstream_auth_failed' };
  return {};
}
