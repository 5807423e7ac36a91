// Polly error answers to the router's categories and fields, by error type name only.

import { describe, expect, it } from 'vitest';
import { classifyPollyError } from './polly-error.js';

const header = (type: string | undefined) => (name: string) => (name === 'x-amzn-errortype' ? type : undefined);
const typed = (type: string) => header(`${type}:http://internal.amazon.com/coral/com.amazonaws.polly.v20160610/`);
const body = '{"message":"never read"}';

describe('classifyPollyError', () => {
  it('names the field for input, engine and validation refusals', () => {
    expect(classifyPollyError(400, body, typed('TextLengthExceededException'))).toEqual({ category: 'invalid_request', field: 'input' });
    expect(classifyPollyError(400, body, typed('EngineNotSupportedException'))).toEqual({ category: 'invalid_request', field: 'model' });
    expect(classifyPollyError(400, body, typed('ValidationException'))).toEqual({ category: 'invalid_request' });
    expect(classifyPollyError(400, body, typed('LexiconNotFoundException'))).toEqual({ category: 'invalid_request' });
  });

  it('reads the body __type or code when the header is absent, as the AWS SDK does', () => {
    expect(classifyPollyError(400, '{"__type":"com.amazonaws.polly#TextLengthExceededException","message":"x"}')).toEqual({ category: 'invalid_request', field: 'input' });
    expect(classifyPollyError(400, '{"code":"LanguageNotSupportedException"}')).toEqual({ category: 'invalid_request' });
  });

  it('calls signature and key failures auth failures and throttling a rate limit, whatever the status', () => {
    expect(classifyPollyError(403, body, typed('UnrecognizedClientException'))).toEqual({ category: 'upstream_auth_failed' });
    expect(classifyPollyError(400, body, typed('ExpiredTokenException'))).toEqual({ category: 'upstream_auth_failed' });
    expect(classifyPollyError(400, body, typed('ThrottlingException'))).toEqual({ category: 'upstream_rate_limited' });
  });

  it('leaves server failures and unknown types to the status', () => {
    expect(classifyPollyError(500, body, typed('ServiceFailureException'))).toEqual({});
    expect(classifyPollyError(503, body, typed('ServiceUnavailableException'))).toEqual({});
    expect(classifyPollyError(500, body, typed('ValidationException'))).toEqual({});
  });

  it.each(['', 'not json', '[]', '{"__type":42}', '{"message":"x"}', '{"__type":"constructor"}', '{"__type":"toString"}'])('returns nothing for %j', (text) => {
    expect(classifyPollyError(400, text)).toEqual({});
    expect(classifyPollyError(400, text, header(''))).toEqual({});
    expect(classifyPollyError(400, text, header(':::'))).toEqual({});
  });
});
