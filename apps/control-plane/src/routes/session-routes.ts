// A user's own sessions (beyond the spec): list them, revoke one, log out everywhere. CLI session
// tokens only (console sessions are managed on the console's Sessions page). Tokens are never shown.
import type { Router } from 'express';
import { listUserSessions, revokeUserSession, revokeUserSessions, type Database } from '@voice-router/ledger';
import { callerOf, requireSession, sendError } from '../authenticate.js';
import { apiRouter } from './api-router.js';

export function sessionRoutes(database: Database): Router {
  const router = apiRouter();
  const session = requireSession(database, { resolveAccount: false });
  const userOf = (caller: ReturnType<typeof callerOf>) => (caller.kind === 'session' ? caller.session : undefined);

  router.get('/v1/auth/sessions', session, async (_request, response) => {
    const current = userOf(callerOf(response))!;
    const sessions = await listUserSessions(database.sql, current.userId);
    response.json({
      sessions: sessions.map((item) => ({
        id: item.sessionId,
        kind: item.kind,
        created_at: item.createdAt.toISOString(),
        expires_at: item.expiresAt.toISOString(),
        current: item.sessionId === current.sessionId,
      })),
    });
  });

  router.delete('/v1/auth/sessions/:id', session, async (request, response) => {
    const current = userOf(callerOf(response))!;
    const revoked = await revokeUserSession(database.sql, { userId: current.userId, sessionId: String(request.params.id) });
    if (!revoked) return sendError(response, 'not_found', 'no active session of yours with that id');
    response.json({ revoked: true });
  });

  router.post('/v1/auth/logout-all', session, async (_request, response) => {
    const current = userOf(callerOf(response))!;
    // Every session of the user, the calling one included.
    const revokedCount = await revokeUserSessions(database.sql, { userId: current.userId });
    response.json({ revoked_count: revokedCount });
  });

  return router;
}
