// POST /v1/auth/device-code, POST /v1/auth/poll, GET /v1/auth/whoami, POST /v1/auth/logout.
import type { Request, Router } from 'express';
import {
  DEVICE_CODE_TTL_SECONDS, DEVICE_POLL_INTERVAL_SECONDS, PollRequestSchema, SESSION_TTL_DAYS,
} from '@voice-router/contracts';
import { createDeviceCode, listUserAccounts, pollDeviceCode, revokeSession, type Database } from '@voice-router/ledger';
import { bearer, identifyCaller, sendError } from '../authenticate.js';
import { publicBaseUrl } from '../public-url.js';
import type { RateLimiter } from '../security/rate-limiter.js';
import { apiRouter } from './api-router.js';

export interface DeviceAuthOptions {
  database: Database;
  authEnabled: boolean;
  publicBaseUrl?: string;
  deviceCodeLimiter: RateLimiter;
}

const SESSION_TTL_MS = SESSION_TTL_DAYS * 24 * 3600 * 1000;

export function deviceAuthRoutes(options: DeviceAuthOptions): Router {
  const router = apiRouter();
  const { database } = options;
  const authGate = (request: Request) => (options.authEnabled ? undefined : request);

  router.post('/v1/auth/device-code', async (request, response) => {
    if (authGate(request)) return sendError(response, 'auth_disabled', 'sign-in is switched off on this deployment (AUTH_ENABLED=false)');
    const decision = await options.deviceCodeLimiter.take(request.ip ?? 'unknown');
    if (!decision.allowed) {
      response.set('Retry-After', String(decision.retryAfterSeconds));
      return sendError(response, 'rate_limited', `too many device codes from this address; try again in ${decision.retryAfterSeconds} s`);
    }
    const { deviceCode, userCode } = await createDeviceCode(database.sql, { ttlMs: DEVICE_CODE_TTL_SECONDS * 1000 });
    const verificationUri = `${publicBaseUrl(request, options.publicBaseUrl)}/console/device`;
    response.json({
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${encodeURIComponent(userCode)}`,
      expires_in: DEVICE_CODE_TTL_SECONDS,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    });
  });

  router.post('/v1/auth/poll', async (request, response) => {
    if (authGate(request)) return sendError(response, 'auth_disabled', 'sign-in is switched off on this deployment (AUTH_ENABLED=false)');
    const parsed = PollRequestSchema.safeParse(request.body);
    if (!parsed.success) return sendError(response, 'invalid_body', 'body must be {"device_code": "…"}');
    const outcome = await pollDeviceCode(database.sql, {
      deviceCode: parsed.data.device_code,
      // One second of slack: a client polling exactly every `interval` seconds never sees slow_down.
      minimumIntervalMs: (DEVICE_POLL_INTERVAL_SECONDS - 1) * 1000,
      sessionTtlMs: SESSION_TTL_MS,
    });
    switch (outcome.status) {
      case 'approved':
        return response.json({ session_token: outcome.sessionToken, expires_at: outcome.expiresAt.toISOString(), user_id: outcome.userId });
      case 'authorization_pending':
        return sendError(response, 'authorization_pending', 'waiting for the user to approve the code');
      case 'slow_down':
        return sendError(response, 'slow_down', `poll at most every ${DEVICE_POLL_INTERVAL_SECONDS} seconds`);
      case 'access_denied':
        return sendError(response, 'access_denied', 'the user denied this sign-in');
      case 'expired_token':
        return sendError(response, 'expired_token', 'this device code has expired or was already exchanged for a token; start again');
      case 'invalid_device_code':
        return sendError(response, 'invalid_device_code', 'unknown device code');
    }
  });

  router.get('/v1/auth/whoami', async (request, response) => {
    const caller = await identifyCaller(database, bearer(request));
    if (!caller) return sendError(response, 'unauthorized', 'a valid pk_ key or session token is required');
    if (caller.kind === 'api_key') return response.json({ user_id: caller.key.accountId, auth: 'api_key' });
    response.json({
      user_id: caller.session.userId,
      auth: 'session',
      expires_at: caller.session.expiresAt.toISOString(),
      email: caller.session.email,
      accounts: await listUserAccounts(database.sql, caller.session.userId),
    });
  });

  router.post('/v1/auth/logout', async (request, response) => {
    const token = bearer(request);
    // Only CLI sessions are bearer tokens; a console cookie token is not revoked through this endpoint.
    const caller = await identifyCaller(database, token);
    const revoked = caller?.kind === 'session' ? await revokeSession(database.sql, caller.token) : false;
    response.json({ revoked });
  });

  return router;
}
