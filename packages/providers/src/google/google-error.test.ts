import { describe, expect, it } from 'vitest';
import { classifyGoogleError } from './google-error.js';

const status = (code: number, name: string, details?: unknown[]) => JSON.stringify({ error: { code, message: 'm', status: name, ...(details ? { details } : {}) } });

describe('classifyGoogleError', () => {
  it('reports INVALID_ARGUMENT as the client request, naming a field when a BadRequest violation names one', () => {
    expect(classifyGoogleError(400, status(400, 'INVALID_ARGUMENT'))).toEqual({ category: 'invalid_request' });
    const violation = [{ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'voice.name', description: 'x' }] }];
    expect(classifyGoogleError(400, status(400, 'INVALID_ARGUMENT', violation))).toEqual({ category: 'invalid_request', field: 'voice' });
    const unknownField = [{ fieldViolations: [{ field: 'something.else' }] }];
    expect(classifyGoogleError(400, status(400, 'INVALID_ARGUMENT', unknownField))).toEqual({ category: 'invalid_request' });
  });

  it('reports a bad API key (400 API_KEY_INVALID) as an auth failure, not the client', () => {
    const details = [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com' }];
    expect(classifyGoogleError(400, status(400, 'INVALID_ARGUMENT', details))).toEqual({ category: 'upstream_auth_failed' });
  });

  it('reports a disabled API or billing as the operator project', () => {
    expect(classifyGoogleError(403, status(403, 'PERMISSION_DENIED', [{ reason: 'SERVICE_DISABLED' }]))).toEqual({ category: 'upstream_rejected_request' });
    expect(classifyGoogleError(400, status(400, 'FAILED_PRECONDITION'))).toEqual({ category: 'upstream_rejected_request' });
  });

  it('maps the canonical codes', () => {
    expect(classifyGoogleError(429, status(429, 'RESOURCE_EXHAUSTED'))).toEqual({ category: 'upstream_rate_limited' });
    expect(classifyGoogleError(401, status(401, 'UNAUTHENTICATED'))).toEqual({ category: 'upstream_auth_failed' });
    expect(classifyGoogleError(403, status(403, 'PERMISSION_DENIED'))).toEqual({ category: 'upstream_auth_failed' });
    expect(classifyGoogleError(503, status(503, 'UNAVAILABLE'))).toEqual({});
  });

  it('falls back on the status, and never throws on garbage', () => {
    expect(classifyGoogleError(400, '<html>Bad Request</html>')).toEqual({ category: 'invalid_request' });
    expect(classifyGoogleError(404, '<html>Not Found</html>')).toEqual({});
    for (const body of ['', '{', 'null', '[]', '{"error":"x"}', '{"error":{"details":"x"}}', '{"error":{"details":[null,{"fieldViolations":[null]}]}}']) {
      expect(() => classifyGoogleError(500, body)).not.toThrow();
    }
  });
});
