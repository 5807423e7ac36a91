// Keys of the selected account. The created key's secret is rendered straight into the POST's
// response (no-store) and never kept anywhere, so it is shown exactly once.
import express, { type Response } from 'express';
import type { ConsoleKey, ConsoleServices } from '../console-services.js';
import { field, parseOptionalCount } from '../http/form.js';
import { requireSignedIn, signedIn } from '../http/request-context.js';
import { sendPage } from '../http/render.js';
import { parseUsdToMicros } from '../money.js';
import { KeysPage, type KeyFormValues, type KeysPageProps } from '../pages/keys-page.js';
import { EditKeyPage, keyFormValues } from '../pages/edit-key-page.js';
import { isFailure, noticeText, statusFor, viewerOf, type RouteDependencies } from './route-support.js';

type KeyInput = Omit<Parameters<ConsoleServices['createKey']>[0], 'userId' | 'accountId'>;

/** Validates the form; every message names the field it is about. */
export function parseKeyForm(form: KeyFormValues): { ok: true; input: KeyInput } | { ok: false; message: string } {
  const name = form.name.trim();
  if (!name) return { ok: false, message: 'Name is required.' };
  if (name.length > 100) return { ok: false, message: 'Name must be at most 100 characters.' };
  const input: KeyInput = { name };
  const concurrency = parseOptionalCount(form.maxConcurrency, 'Max concurrency');
  if (!concurrency.ok) return concurrency;
  if (concurrency.value !== undefined) input.maxConcurrency = concurrency.value;
  const perMinute = parseOptionalCount(form.rateLimitPerMinute, 'Requests per minute');
  if (!perMinute.ok) return perMinute;
  if (perMinute.value !== undefined) input.rateLimitPerMinute = perMinute.value;
  for (const [text, label, target] of [
    [form.dailySpendCap, 'Daily spend cap', 'dailySpendCapMicros'],
    [form.monthlySpendCap, 'Monthly spend cap', 'monthlySpendCapMicros'],
  ] as const) {
    if (text.trim() === '') continue;
    const parsed = parseUsdToMicros(text);
    if (!parsed.ok) return { ok: false, message: `${label}: ${parsed.message}` };
    input[target] = parsed.micros;
  }
  return { ok: true, input };
}

export function keysRoutes({ services }: RouteDependencies): express.Router {
  const router = express.Router();
  router.use('/keys', requireSignedIn(services));

  async function render(response: Response, extra: Omit<KeysPageProps, 'viewer' | 'keys'>, status = 200): Promise<void> {
    const { session, account } = signedIn(response);
    const keys = await services.listKeys({ userId: session.userId, accountId: account.accountId });
    const list: ConsoleKey[] = isFailure(keys) ? [] : keys;
    const error = extra.error ?? (isFailure(keys) ? keys.message : undefined);
    sendPage(response, <KeysPage viewer={viewerOf(response)} keys={list} {...extra} error={error} />, status);
  }

  router.get('/keys', async (request, response) => {
    await render(response, { notice: noticeText(request.query.notice) });
  });

  router.post('/keys', async (request, response) => {
    const form = readKeyForm(request);
    const parsed = parseKeyForm(form);
    if (!parsed.ok) return render(response, { form, error: parsed.message }, 400);
    const { session, account } = signedIn(response);
    const result = await services.createKey({ userId: session.userId, accountId: account.accountId, ...parsed.input });
    if (!result.ok) return render(response, { form, error: result.message }, statusFor(result));
    await render(response, { created: { key: result.key, keyValue: result.keyValue } });
  });

  router.post('/keys/:keyId/revoke', async (request, response) => {
    const { session, account } = signedIn(response);
    const result = await services.revokeKey({ userId: session.userId, accountId: account.accountId, keyId: String(request.params.keyId) });
    if (!result.ok) return render(response, { error: result.message }, statusFor(result));
    response.redirect(303, '/console/keys?notice=key-revoked');
  });

  async function editableKey(response: Response, keyId: string): Promise<ConsoleKey | undefined> {
    const { session, account } = signedIn(response);
    const keys = await services.listKeys({ userId: session.userId, accountId: account.accountId });
    return isFailure(keys) ? undefined : keys.find((key) => key.id === keyId && key.editableByMe);
  }

  router.get('/keys/:keyId/edit', async (request, response) => {
    const key = await editableKey(response, String(request.params.keyId));
    if (!key) return render(response, { error: 'No such key that you created or whose account you own.' }, 404);
    sendPage(response, <EditKeyPage viewer={viewerOf(response)} key_={key} form={keyFormValues(key)} />);
  });

  router.post('/keys/:keyId/edit', async (request, response) => {
    const keyId = String(request.params.keyId);
    const key = await editableKey(response, keyId);
    if (!key) return render(response, { error: 'No such key that you created or whose account you own.' }, 404);
    const form = readKeyForm(request);
    const parsed = parseKeyForm(form);
    if (!parsed.ok) return sendPage(response, <EditKeyPage viewer={viewerOf(response)} key_={key} form={form} error={parsed.message} />, 400);
    const { session, account } = signedIn(response);
    // Every field is on the form, so an empty one means "back to the default" / "no cap".
    const { input } = parsed;
    const result = await services.updateKey({
      userId: session.userId, accountId: account.accountId, keyId,
      changes: {
        name: input.name, maxConcurrency: input.maxConcurrency ?? null, rateLimitPerMinute: input.rateLimitPerMinute ?? null,
        dailySpendCapMicros: input.dailySpendCapMicros ?? null, monthlySpendCapMicros: input.monthlySpendCapMicros ?? null,
      },
    });
    if (!result.ok) return sendPage(response, <EditKeyPage viewer={viewerOf(response)} key_={key} form={form} error={result.message} />, statusFor(result));
    response.redirect(303, '/console/keys?notice=key-updated');
  });

  return router;
}

function readKeyForm(request: express.Request): KeyFormValues {
  return {
    name: field(request, 'name', 200),
    maxConcurrency: field(request, 'max_concurrency', 20),
    rateLimitPerMinute: field(request, 'rate_limit_per_minute', 20),
    dailySpendCap: field(request, 'daily_spend_cap', 40),
    monthlySpendCap: field(request, 'monthly_spend_cap', 40),
  };
}
