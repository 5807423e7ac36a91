// Classifies OpenAI error answers (`{error: {message, type, param, code}}`). The message is never read;
// `param`, `code` and `type` are only compared against known values.

import type { RequestField } from '../errors.js';
import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';

/** 429s that will not clear by waiting: the account is out of credit. */
const QUOTA_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

/** OpenAI's `param` names for the speech body, which are also the router's own field names. */
const PARAM_FIELDS: Record<string, RequestField> = {
  model: 'model',
  input: 'input',
  voice: 'voice',
  speed: 'speed',
  instructions: 'instructions',
  response_format: 'response_format',
};

function fieldOf(param: string | undefined, code: string | undefined): RequestField | undefined {
  if (code === 'model_not_found') return 'model';
  if (code === 'string_above_max_length' && param === undefined) return 'input';
  // `voice.id` for custom voices: the first segment names the field.
  const head = param?.split(/[.[]/, 1)[0];
  return head !== undefined && Object.hasOwn(PARAM_FIELDS, head) ? PARAM_FIELDS[head] : undefined;
}

export function classifyOpenAIError(status: number, bodyText: string): UpstreamErrorClassification {
  const parsed = parseJson(bodyText);
  const error = isObject(parsed) && isObject(parsed.error) ? parsed.error : undefined;
  const code = error ? stringField(error, 'code') : undefined;
  const type = error ? stringField(error, 'type') : undefined;
  const param = error ? stringField(error, 'param') : undefined;
  if (status === 429 && ((code !== undefined && QUOTA_CODES.has(code)) || type === 'insufficient_quota')) {
    return { category: 'upstream_quota_exceeded' };
  }
  if (!error) return {};
  const field = fieldOf(param, code);
  // A 404 is the client's only when the model is unknown; any other 404 (e.g. "Invalid URL") means the
  // router's base URL is wrong, which the status-based category already says.
  if (status === 404) return field === 'model' ? { category: 'invalid_request', field } : {};
  if (status === 413) return { category: 'invalid_request', field: 'input' };
  if ((status === 400 || status === 422) && (type === 'invalid_request_error' || field !== undefined)) {
    return field ? { category: 'invalid_request', field } : { category: 'invalid_request' };
  }
  return {};
}
