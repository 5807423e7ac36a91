import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, type ErrorCode } from '@voice-router/contracts';
import { ApiError, CliError, UsageError, type TokenKind } from './cli-errors.js';
import { describeApiError, describeFailure } from './error-messages.js';

const message = (code: string | undefined, status: number, tokenKind: TokenKind = 'none', details?: string) =>
  describeApiError(new ApiError(status, code, details, tokenKind));

describe('describeApiError', () => {
  it('has its own one-line message for every error code of the contract', () => {
    const fallback = /^The server answered/;
    for (const [code, status] of Object.entries(ERROR_STATUS) as Array<[ErrorCode, number]>) {
      for (const tokenKind of ['none', 'session', 'api_key'] as const) {
        const text = message(code, status, tokenKind, 'the details');
        expect(text, code).not.toMatch(fallback);
        expect(text, code).not.toContain('\n');
        expect(text, code).toContain('the details');
      }
    }
  });

  it('gives the hints people need', () => {
    expect(message('unauthorized', 401, 'session')).toBe('Not logged in or the session expired: run `vr login`.');
    expect(message('unauthorized', 401, 'api_key')).toMatch(/API key was not accepted.*--api-key/);
    expect(message('insufficient_credit', 402, 'api_key', 'needs $0.01')).toMatch(/^Your wallet cannot cover this request \(needs \$0\.01\)/);
    expect(message('organization_required', 403, 'session')).toMatch(/pass --org <id> or --org personal/);
    expect(message('forbidden', 403, 'session')).toMatch(/not a member of that organization/);
    expect(message('scope_required', 403, 'session')).toMatch(/needs an API key \(pk_…\), not a login session.*vr keys create/);
    expect(message('scope_required', 403, 'api_key')).toMatch(/needs a login session, not an API key.*vr login/);
    expect(message('upstream_error', 504)).toMatch(/did not answer in time/);
    expect(message('upstream_error', 502)).toMatch(/provider failed/);
    expect(message('provider_unavailable', 503)).toMatch(/no API key configured/);
    expect(message('access_denied', 403)).toMatch(/denied/);
    expect(message('expired_token', 410)).toMatch(/expired.*vr login/);
    expect(message('auth_disabled', 503)).toMatch(/Login is switched off/);
    expect(message('billing_not_configured', 503, 'session')).toMatch(/takes no card payments/);
    expect(describeApiError(new ApiError(402, 'card_declined', undefined, 'session', { declineCode: 'insufficient_funds' })))
      .toBe('The card was declined (insufficient_funds). Nothing was charged; try another card (`vr billing methods`).');
    expect(describeApiError(new ApiError(402, 'stripe_3ds_required', undefined, 'session', { url: 'https://vr.example/console/billing/authenticate/pi_1' })))
      .toMatch(/^Your bank wants you to confirm this payment\. Open https:\/\/vr\.example\/console\/billing\/authenticate\/pi_1 in a browser/);
  });

  it('still says something useful for bodies that are not the API\'s', () => {
    expect(message(undefined, 404, 'none', '<html>')).toMatch(/no such endpoint.*--base-url/);
    expect(message(undefined, 500)).toBe('The server answered HTTP 500.');
    expect(message('brand_new_code', 418, 'none', 'x')).toBe('The server answered 418 brand_new_code (x).');
  });
});

describe('describeFailure', () => {
  it('maps each failure to its exit code', () => {
    expect(describeFailure(new UsageError('bad', 'say'))).toEqual({ message: 'bad (see `vr say --help`)', exitCode: 2 });
    expect(describeFailure(new UsageError('bad'))).toEqual({ message: 'bad (see `vr --help`)', exitCode: 2 });
    expect(describeFailure(new CliError('local'))).toEqual({ message: 'local', exitCode: 1 });
    expect(describeFailure(new ApiError(401, 'unauthorized', undefined, 'session')).exitCode).toBe(1);
  });

  it('explains an unreachable server', () => {
    const error = new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) });
    expect(describeFailure(error, 'http://127.0.0.1:9').message).toBe(
      'Cannot reach the server at http://127.0.0.1:9 (ECONNREFUSED): is it running? Set --base-url or VR_BASE_URL.',
    );
  });
});
