// The identities the fuzz speaks as, made the way an operator and a person would: users, keys and
// credit through the real admin CLI, and a CLI session through the console's device-code approval.
import type { ServiceUnderFuzz } from './service.js';

export interface FuzzAccount {
  email: string;
  accountId: string;
  key: string;
  /** Every key that spends from this account (the run attributes charges by the key a request carried). */
  keys: string[];
}

export interface FuzzIdentities {
  /** Funded generously: most speech requests that pass validation are served and charged. */
  rich: FuzzAccount;
  /** 100 micro-dollars: most requests are refused with 402, a few tiny ones pass. */
  poor: FuzzAccount;
  /** Revoked by the operator before the run: always 401. */
  revokedKey: string;
  /** A `vr_session_` token of the rich user (a device-code login approved in the console). */
  session: string;
  /** A key of the rich account with tight limits of its own (5 a minute, 1 stream, 2,000 micro-dollars a day),
   *  minted through the API with the session: its requests meet 429s and 402 spend_limit_exceeded. */
  limitedKey: string;
  limitedKeyId: string;
  /** Every account whose money the run checks. */
  accounts: FuzzAccount[];
}

const PASSWORD = 'fuzzing is a kind of testing';

async function account(service: ServiceUnderFuzz, email: string, usd: string): Promise<FuzzAccount> {
  const user = await service.admin(['create-user', '--email', email]);
  const key = await service.admin(['create-key', '--email', email, '--name', 'fuzz']);
  await service.admin(['grant', '--email', email, '--usd', usd]);
  return { email, accountId: user.personalAccountId as string, key: key.keyValue as string, keys: [key.keyValue as string] };
}

/** Copies a form's hidden fields (the CSRF token) and adds `fields`, as a browser without JavaScript does. */
function formFields(html: string, action: string, fields: Record<string, string>): URLSearchParams {
  const form = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((match) => match[1] === action);
  if (!form) throw new Error(`no form posting to ${action}:\n${html.slice(0, 2000)}`);
  const body = new URLSearchParams();
  for (const hidden of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(hidden[0])?.[1];
    if (name) body.set(name, (/value="([^"]*)"/.exec(hidden[0])?.[1] ?? '').replaceAll('&amp;', '&'));
  }
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return body;
}

async function deviceSession(baseUrl: string, email: string): Promise<string> {
  let cookie = '';
  const remember = (response: Response) => {
    const pairs = response.headers.getSetCookie().map((line) => line.split(';')[0]!);
    if (pairs.length) cookie = [...new Map([...cookie.split('; ').filter(Boolean), ...pairs].map((pair) => [pair.split('=')[0], pair])).values()].join('; ');
  };
  const page = async (path: string) => {
    const response = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: 'manual' });
    remember(response);
    return response.text();
  };
  const post = async (path: string, body: URLSearchParams) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body, redirect: 'manual',
    });
    remember(response);
    if (response.status >= 400) throw new Error(`POST ${path}: ${response.status} ${(await response.text()).slice(0, 500)}`);
    return response.text();
  };

  await post('/console/login', formFields(await page('/console/login'), '/console/login', { email, password: PASSWORD }));
  const started = await fetch(`${baseUrl}/v1/auth/device-code`, { method: 'POST' });
  const code = (await started.json()) as { device_code: string; user_code: string };
  const confirm = await post('/console/device', formFields(await page('/console/device'), '/console/device', { user_code: code.user_code }));
  await post('/console/device/decide', formFields(confirm, '/console/device/decide', { decision: 'approve' }));
  const polled = await fetch(`${baseUrl}/v1/auth/poll`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ device_code: code.device_code }),
  });
  const token = ((await polled.json()) as { session_token?: string }).session_token;
  if (polled.status !== 200 || !token) throw new Error(`the device-code login did not yield a session (${polled.status})`);
  return token;
}

export async function createIdentities(service: ServiceUnderFuzz): Promise<FuzzIdentities> {
  const [rich, poor] = await Promise.all([account(service, 'fuzz-rich@example.com', '1000'), account(service, 'fuzz-poor@example.com', '0.0001')]);
  const [revoked] = await Promise.all([
    service.admin(['create-key', '--email', rich.email, '--name', 'revoked']),
    service.admin(['set-password', '--email', rich.email, '--password', '-'], PASSWORD),
  ]);
  await service.admin(['revoke-key', '--id', revoked.id as string]);
  const session = await deviceSession(service.baseUrl, rich.email);
  const minted = await fetch(`${service.baseUrl}/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${session}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'limited', rateLimitPerMinute: 5, maxConcurrency: 1, dailySpendCapMicros: 2_000 }),
  });
  const limited = (await minted.json()) as { id?: string; keyValue?: string };
  if (minted.status !== 200 || !limited.keyValue || !limited.id) throw new Error(`POST /v1/keys with the session answered ${minted.status}`);
  rich.keys.push(limited.keyValue);
  return { rich, poor, revokedKey: revoked.keyValue as string, session, limitedKey: limited.keyValue, limitedKeyId: limited.id, accounts: [rich, poor] };
}
