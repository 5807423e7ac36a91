// Signs people up through the console and logs them in through the real device flow.
import http from 'node:http';
import { ConsoleClient } from './console-client.js';

export interface Person {
  email: string;
  console: ConsoleClient;
  token: string;
  userId: string;
}

export async function api(baseUrl: string, path: string, token?: string, init: RequestInit & { organization?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.organization) headers['x-organization-id'] = init.organization;
  const response = await fetch(`${baseUrl}${path}`, { ...init, headers: { ...headers, ...(init.headers as Record<string, string>) } });
  return { status: response.status, body: jsonOrText(await response.text()) };
}

/** The body as JSON, or as the text it is when it is not JSON. */
function jsonOrText(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A GET whose target goes out exactly as written (fetch would drop a `#fragment` before sending). */
export function rawGet(baseUrl: string, target: string, token: string): Promise<{ status: number; body: any }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: hostname, port, path: target, headers: { authorization: `Bearer ${token}` } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk))
        .on('end', () => resolve({ status: response.statusCode!, body: jsonOrText(text) }));
    });
    request.on('error', reject).end();
  });
}

export async function startDeviceLogin(baseUrl: string) {
  const { status, body } = await api(baseUrl, '/v1/auth/device-code', undefined, { method: 'POST' });
  if (status !== 200) throw new Error(`device-code: ${status} ${JSON.stringify(body)}`);
  return body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete: string; expires_in: number; interval: number };
}

export function poll(baseUrl: string, deviceCode: string) {
  return api(baseUrl, '/v1/auth/poll', undefined, { method: 'POST', body: JSON.stringify({ device_code: deviceCode }) });
}

export async function decide(person: { console: ConsoleClient }, verificationUriComplete: string, decision: 'Approve' | 'Deny') {
  const url = new URL(verificationUriComplete);
  const path = url.pathname + url.search;
  let page = await person.console.submit(path, /\/console\/device/, { user_code: url.searchParams.get('user_code') ?? '' });
  let pagePath = path;
  if (page.location) {
    pagePath = page.location;
    page = await person.console.get(page.location);
  }
  const result = await person.console.submitFromHtml(page.html, pagePath, /\/console\/device/, decision);
  if (result.status >= 400) throw new Error(`device ${decision}: ${result.status} ${result.html.slice(0, 500)}`);
  return result;
}

export async function signUp(baseUrl: string, email: string, password = 'correct horse battery'): Promise<ConsoleClient> {
  const client = new ConsoleClient(baseUrl);
  const result = await client.submit('/console/signup', /\/console\/signup/, { email, password });
  if (result.status >= 400) throw new Error(`sign-up failed: ${result.status} ${result.html.slice(0, 500)}`);
  return client;
}

/** Sign up in the console, then log in with the device flow and return the CLI session token. */
export async function person(baseUrl: string, email: string): Promise<Person> {
  const client = await signUp(baseUrl, email);
  const login = await startDeviceLogin(baseUrl);
  await decide({ console: client }, login.verification_uri_complete, 'Approve');
  const approved = await poll(baseUrl, login.device_code);
  if (approved.status !== 200) throw new Error(`poll after approval: ${approved.status} ${JSON.stringify(approved.body)}`);
  return { email, console: client, token: approved.body.session_token, userId: approved.body.user_id };
}
