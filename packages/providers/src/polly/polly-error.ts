// Classifies Polly error answers by the error type name (x-amzn-ErrorType header, else the body's __type or
// code, as the AWS SDK reads them), never by message text.

import type { RequestField } from '../errors.js';
import type { UpstreamErrorClassification } from '../http/send-speech-request.js';
import { isObject, parseJson, stringField } from '../shared/error-body.js';

/** `ValidationException:http://internal.amazon.com/...` or `aws.polly#ValidationException` → `ValidationException`. */
function sanitizeType(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const withoutNamespace = raw.split(':')[0]!;
  const name = withoutNamespace.includes('#') ? withoutNamespace.slice(withoutNamespace.lastIndexOf('#') + 1) : withoutNamespace;
  return name.trim() || undefined;
}

export function pollyErrorType(bodyText: string, header?: (name: string) => string | undefined): string | undefined {
  const fromHeader = sanitizeType(header?.('x-amzn-errortype'));
  if (fromHeader) return fromHeader;
  const parsed = parseJson(bodyText);
  if (!isObject(parsed)) return undefined;
  return sanitizeType(stringField(parsed, '__type') ?? stringField(parsed, 'code'));
}

const CLIENT_REFUSALS: Record<string, RequestField | undefined> = {
  ValidationException: undefined,
  TextLengthExceededException: 'input',
  InvalidSsmlException: 'input',
  EngineNotSupportedException: 'model',
  LanguageNotSupportedException: undefined,
  LexiconNotFoundException: undefined,
  InvalidSampleRateException: undefined,
  MarksNotSupportedForFormatException: undefined,
  SsmlMarksNotSupportedForTextTypeException: undefined,
};

const AUTH_FAILURES = new Set(['UnrecognizedClientException', 'InvalidSignatureException', 'AccessDeniedException', 'ExpiredTokenException', 'MissingAuthenticationTokenException', 'IncompleteSignatureException']);

export function classifyPollyError(status: number, bodyText: string, header?: (name: string) => string | undefined): UpstreamErrorClassification {
  const type = pollyErrorType(bodyText, header);
  if (type === undefined) return {};
  if (Object.hasOwn(CLIENT_REFUSALS, type) && status >= 400 && status < 500) {
    const field = CLIENT_REFUSALS[type];
    return field ? { category: 'invalid_request', field } : { category: 'invalid_request' };
  }
  if (AUTH_FAILURES.has(type)) return { category: 'upstream_auth_failed' };
  if (type === 'ThrottlingException' || type === 'TooManyRequestsException') return { category: 'upstream_rate_limited' };
  return {};
}
