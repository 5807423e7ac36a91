// Device-code login (RFC 8628 semantics), whoami and logout.
import { z } from 'zod';

export const SESSION_TOKEN_PREFIX = 'vr_session_';
export const DEVICE_CODE_TTL_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
export const SESSION_TTL_DAYS = 90;

export const DeviceCodeResponseSchema = z
  .object({
    device_code: z.string(),
    user_code: z.string().describe('Eight unambiguous letters shown as ABCD-EFGH.'),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.literal(DEVICE_CODE_TTL_SECONDS),
    interval: z.literal(DEVICE_POLL_INTERVAL_SECONDS),
  })
  .meta({ id: 'DeviceCode' });

export const PollRequestSchema = z.object({ device_code: z.string().min(1).max(200) }).meta({ id: 'PollRequest' });

export const SessionTokenResponseSchema = z
  .object({
    session_token: z.string().describe('`vr_session_…`; send as `Authorization: Bearer`.'),
    expires_at: z.string().describe('ISO 8601, 90 days after approval.'),
    user_id: z.string(),
  })
  .meta({ id: 'SessionToken' });

export const WhoamiResponseSchema = z
  .object({
    user_id: z.string().describe('For a pk_ key: the id of the account that owns the key.'),
    auth: z.enum(['api_key', 'session']),
    expires_at: z.string().optional(),
    email: z.string().optional(),
    accounts: z
      .array(z.object({ accountId: z.string(), kind: z.enum(['personal', 'organization']), name: z.string(), role: z.enum(['owner', 'member']) }))
      .optional()
      .describe('Sessions only: the accounts this user can act for (ids for X-Organization-Id).'),
  })
  .meta({ id: 'Whoami' });

export const LogoutResponseSchema = z.object({ revoked: z.boolean() }).meta({ id: 'Logout' });

// A user's own sessions (beyond the spec): listed, revoked one by one, or all at once.
export const SessionSchema = z
  .object({
    id: z.string().describe('The session id (not its token, which is never shown again).'),
    kind: z.enum(['console', 'cli']).describe('`console`: a browser cookie (7 days); `cli`: a `vr login` token (90 days).'),
    created_at: z.string().describe('ISO 8601.'),
    expires_at: z.string().describe('ISO 8601.'),
    current: z.boolean().describe('True for the session that made this request.'),
  })
  .meta({ id: 'Session' });

export const SessionListSchema = z.object({ sessions: z.array(SessionSchema) }).meta({ id: 'SessionList' });

export const RevokedSessionSchema = z.object({ revoked: z.literal(true) }).meta({ id: 'RevokedSession' });

export const LogoutAllResponseSchema = z
  .object({ revoked_count: z.int().min(0).describe('Sessions ended, the calling one included.') })
  .meta({ id: 'LogoutAll' });
