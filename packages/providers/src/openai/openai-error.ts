// Extracts OpenAI's `error.code` (or `error.type`) from an error body; the message is never kept.

import type { ParsedUpstreamError } from '../http/send-speech-request.js';
import type { OpenAIErrorBody } from './openai-api-types.js';

/** 429s that will not clear by waiting: the account is out of credit. */
const NOT_RETRYABLE_CODES = new Set(['insufficient_quota', 'billing_hard_limit_reached']);

export function parseOpenAIErrorBody(_status: number, bodyText: string): ParsedUpstreamError {
  let parsed: OpenAIErrorBody;
  try {
    parsed = JSON.parse(bodyText) as OpenAIErrorBody;
  } catch {
    return {};
  }
  const error = typeof parsed === 'object' && parsed !== null ? parsed.error : undefined;
  if (typeof error !== 'object' || error === null) return {};
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  if (code === undefined) return {};
  const quotaExhausted = NOT_RETRYABLE_CODES.has(code) || error.type === 'insufficient_quota';
  return quotaExhausted ? { upstreamCode: code, isRetryable: false } : { upstreamCode: code };
}
