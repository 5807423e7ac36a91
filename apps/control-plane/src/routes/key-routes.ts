// GET/POST /v1/keys, PATCH and DELETE /v1/keys/{id} (session tokens only).
import type { Router } from 'express';
import { CreateApiKeyRequestSchema, UpdateApiKeyRequestSchema, type UpdateApiKeyRequest } from '@voice-router/contracts';
import {
  createApiKey, findAccountKey, listAccountKeys, revokeAccountKey, updateApiKey, type ApiKeyChanges, type Database,
} from '@voice-router/ledger';
import { accountOf, callerOf, requireSession, sendError } from '../authenticate.js';
import { withKeyLimits, type KeyLimitDefaults } from '../key-limits.js';
import { apiRouter } from './api-router.js';

export interface KeyRouteOptions {
  database: Database;
  /** Called with a revoked or changed key's hash so a data plane in this process drops it from its cache at once. */
  onKeyRevoked(keyHash: string): void;
  keyLimitDefaults: KeyLimitDefaults;
}

const optionalMicros = (value: number | null | undefined) => (value === undefined || value === null ? value : BigInt(value));

function keyChanges(request: UpdateApiKeyRequest): ApiKeyChanges {
  return {
    name: request.name,
    maxConcurrency: request.maxConcurrency,
    rateLimitPerMinute: request.rateLimitPerMinute,
    dailySpendCapMicros: optionalMicros(request.dailySpendCapMicros),
    monthlySpendCapMicros: optionalMicros(request.monthlySpendCapMicros),
  };
}

export function keyRoutes(options: KeyRouteOptions): Router {
  const router = apiRouter();
  const { database } = options;
  const session = requireSession(database);
  const publicKey = (key: Awaited<ReturnType<typeof listAccountKeys>>[number]) => {
    const { createdByUserId: _creator, ...visible } = withKeyLimits(key, options.keyLimitDefaults);
    return visible;
  };

  router.get('/v1/keys', session, async (request, response) => {
    const keys = await listAccountKeys(database.sql, accountOf(response).accountId);
    response.json({ keys: keys.map(publicKey) });
  });

  router.post('/v1/keys', session, async (request, response) => {
    const parsed = CreateApiKeyRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      return sendError(response, 'invalid_body', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
    }
    const caller = callerOf(response);
    const userId = caller.kind === 'session' ? caller.session.userId : null;
    const created = await createApiKey(database.prisma, {
      accountId: accountOf(response).accountId,
      createdByUserId: userId,
      name: parsed.data.name,
      maxConcurrency: parsed.data.maxConcurrency,
      rateLimitPerMinute: parsed.data.rateLimitPerMinute,
      dailySpendCapMicros: parsed.data.dailySpendCapMicros === undefined ? undefined : BigInt(parsed.data.dailySpendCapMicros),
      monthlySpendCapMicros: parsed.data.monthlySpendCapMicros === undefined ? undefined : BigInt(parsed.data.monthlySpendCapMicros),
    });
    const listed = (await findAccountKey(database.sql, accountOf(response).accountId, created.id))!;
    response.json({ ...publicKey(listed), keyValue: created.keyValue });
  });

  // Revoking needs a session but not an account choice: the key's minter (wherever it lives) or an
  // owner of the key's account may revoke it; other members get 403, everyone else 404.
  router.delete('/v1/keys/:id', requireSession(database, { resolveAccount: false }), async (request, response) => {
    const caller = callerOf(response);
    if (caller.kind !== 'session') return;
    const outcome = await revokeAccountKey(database.sql, { keyId: String(request.params.id), userId: caller.session.userId });
    if (!outcome.ok && outcome.reason === 'forbidden') return sendError(response, 'forbidden', 'only the member who created a key or an owner of its organization may revoke it');
    if (!outcome.ok) return sendError(response, 'not_found', 'no such key');
    options.onKeyRevoked(outcome.keyHash);
    response.json({ deleted: true });
  });

  // Beyond the spec: change a key's name and limits. Its minter or an owner of its account may; anyone
  // else gets 404, as for revocation. Other replicas see the change within AUTH_CACHE_TTL_MS.
  router.patch('/v1/keys/:id', requireSession(database, { resolveAccount: false }), async (request, response) => {
    const caller = callerOf(response);
    if (caller.kind !== 'session') return;
    const parsed = UpdateApiKeyRequestSchema.safeParse(request.body);
    if (!parsed.success) {
      return sendError(response, 'invalid_body', parsed.error.issues.map((issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`).join('; '));
    }
    const keyId = String(request.params.id);
    const updated = await updateApiKey(database.sql, { keyId, userId: caller.session.userId, changes: keyChanges(parsed.data) });
    if (!updated) return sendError(response, 'not_found', 'no key with that id that you created or whose account you own');
    options.onKeyRevoked(updated.keyHash);
    const listed = (await findAccountKey(database.sql, updated.accountId, keyId))!;
    response.json(publicKey(listed));
  });

  return router;
}
