// The control plane in this process on a real database, with the Stripe double as the payment
// processor and its webhooks pointed at the control plane: people with CLI and console sessions,
// and helpers to call the API and drive the console over plain HTTP.
import crypto from 'node:crypto';
import Stripe from 'stripe';
import { createApiKey, createSession, createUser, getCredits, openDatabase, type Database } from '@voice-router/ledger';
import { createLogger } from '@voice-router/service-kit';
import { startStripeDouble, type StripeDouble, enterCardInCheckout } from '@voice-router/stripe-double';
import { createTestDatabase, type TestDatabase } from '@voice-router/test-support';
import { createControlPlaneApp, listen } from '../src/index.js';
import { csrfTokenFor } from '../src/console/sign-in-services.js';

export interface Harness {
  baseUrl: string;
  database: Database;
  double: StripeDouble;
  /** The official library on the double, as a dashboard user or a test would use Stripe. */
  stripe: Stripe;
  logs: string[];
  webhookUrl: string;
  webhookSecret: string;
  close(): Promise<void>;
}

export async function startHarness(mode: 'pglite' | 'postgres', options: { configured?: boolean } = {}): Promise<Harness> {
  let testDatabase: TestDatabase | undefined;
  let database: Database;
  if (mode === 'postgres') {
    testDatabase = await createTestDatabase();
    database = await openDatabase({ kind: 'postgres', url: testDatabase.url, poolSize: 20 });
  } else {
    database = await openDatabase({ kind: 'pglite-memory' });
  }
  const double = await startStripeDouble({ webhookRetryDelaysMs: [50, 100, 200] });
  const webhookSecret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
  const logs: string[] = [];
  const logger = createLogger({ name: 'control-plane', level: 'debug', write: (line) => logs.push(line) });
  const configured = options.configured ?? true;
  const app = createControlPlaneApp({
    database, logger,
    stripe: configured ? { secretKey: double.secretKey, webhookSecret, apiBaseUrl: double.baseUrl } : undefined,
  });
  const server = await listen(app, '127.0.0.1', 0);
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const webhookUrl = `${baseUrl}/v1/billing/webhook`;
  if (configured) double.addWebhookEndpoint(webhookUrl, { secret: webhookSecret });
  return {
    baseUrl, database, double, logs, webhookUrl, webhookSecret,
    stripe: new Stripe(double.secretKey, { ...double.clientSettings, maxNetworkRetries: 0 }),
    async close() {
      await double.close();
      await server.close();
      await database.close();
      await testDatabase?.drop();
    },
  };
}

export interface Person {
  userId: string;
  accountId: string;
  /** A CLI (device-flow) session token. */
  token: string;
  consoleToken: string;
}

export async function newPerson(harness: Harness): Promise<Person> {
  const user = await createUser(harness.database.prisma, { email: `${crypto.randomUUID()}@example.com` });
  const cli = await createSession(harness.database.sql, { userId: user.userId, kind: 'cli', ttlMs: 3_600_000 });
  const web = await createSession(harness.database.sql, { userId: user.userId, kind: 'console', ttlMs: 3_600_000 });
  return { userId: user.userId, accountId: user.personalAccountId, token: cli.token, consoleToken: web.token };
}

export async function apiKeyFor(harness: Harness, person: Person): Promise<string> {
  return (await createApiKey(harness.database.prisma, { accountId: person.accountId, createdByUserId: person.userId, name: 'k' })).keyValue;
}

export async function api(
  harness: Harness, path: string, options: { token?: string; body?: unknown; organization?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.organization) headers['x-organization-id'] = options.organization;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${harness.baseUrl}${path}`, {
    method: options.body === undefined ? 'GET' : 'POST', headers, body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: text };
  }
}

export const topUp = (harness: Harness, person: Person, body: Record<string, unknown>, token = person.token) =>
  api(harness, '/v1/billing/topup', { token, body: { idempotency_key: crypto.randomUUID(), ...body } });

/** A console request with the person's session cookie; POSTs carry the CSRF token. */
export async function consoleRequest(
  harness: Harness, person: Person, path: string, form?: Record<string, string>,
): Promise<{ status: number; location: string | null; html: string; contentSecurityPolicy: string | null }> {
  const url = path.startsWith('http') ? path : `${harness.baseUrl}${path}`;
  const response = await fetch(url, {
    method: form ? 'POST' : 'GET',
    headers: { cookie: `vr_console=${person.consoleToken}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams({ _csrf: csrfTokenFor(person.consoleToken), ...form }) : undefined,
    redirect: 'manual',
  });
  return {
    status: response.status, location: response.headers.get('location'), html: await response.text(),
    contentSecurityPolicy: response.headers.get('content-security-policy'),
  };
}

/** Console → Stripe Checkout → back to the console, as a browser without JavaScript would. */
export async function addCardThroughConsole(harness: Harness, person: Person, cardNumber: string): Promise<void> {
  const started = await consoleRequest(harness, person, '/console/billing/cards', {});
  if (started.status !== 303 || !started.location) throw new Error(`add card: ${started.status} ${started.html.slice(0, 300)}`);
  const back = await enterCardInCheckout(started.location, cardNumber);
  const finished = await consoleRequest(harness, person, back);
  if (finished.location !== '/console/billing?notice=card-added') throw new Error(`card not added: ${finished.status} ${finished.location}`);
}

export async function methodsOf(harness: Harness, person: Person): Promise<Array<{ id: string; brand: string; last4: string }>> {
  const listed = await api(harness, '/v1/billing/methods', { token: person.token });
  if (listed.status !== 200) throw new Error(`methods: ${listed.status} ${JSON.stringify(listed.body)}`);
  return listed.body.methods;
}

export async function balanceOf(harness: Harness, accountId: string): Promise<bigint> {
  return (await getCredits(harness.database.sql, accountId))?.balanceMicros ?? 0n;
}

/** Waits until the double has delivered everything (the webhook answered) and returns the balance. */
export async function settledBalance(harness: Harness, accountId: string): Promise<bigint> {
  await harness.double.webhooks.idle();
  return balanceOf(harness, accountId);
}
