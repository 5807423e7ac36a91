// A tiny browser stand-in for route tests: keeps cookies, does not follow redirects, and finds the
// CSRF token in the last page it fetched.
export interface Reply {
  status: number;
  location: string | null;
  headers: Headers;
  setCookies: string[];
  body: string;
}

export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  lastBody = '';

  constructor(private readonly baseUrl: string, private readonly extraHeaders: Record<string, string> = {}) {}

  async get(path: string): Promise<Reply> {
    return this.send(path, { method: 'GET' });
  }

  /** Posts a form; `_csrf` defaults to the token found in the last page. */
  async post(path: string, form: Record<string, string>, options: { csrf?: string | null } = {}): Promise<Reply> {
    const fields = { ...form };
    const csrf = options.csrf === undefined ? this.csrfToken() : options.csrf;
    if (csrf !== null && csrf !== undefined) fields._csrf = csrf;
    return this.send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
  }

  csrfToken(): string | undefined {
    return /name="_csrf" value="([^"]+)"/.exec(this.lastBody)?.[1];
  }

  private async send(path: string, init: RequestInit): Promise<Reply> {
    const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(this.baseUrl + path, {
      ...init,
      redirect: 'manual',
      headers: { ...this.extraHeaders, ...(init.headers as Record<string, string> | undefined), ...(cookie ? { cookie } : {}) },
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair = '', ...attributes] = line.split(';');
      const separator = pair.indexOf('=');
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = attributes.some((attribute) => /^\s*expires=Thu, 01 Jan 1970/i.test(attribute));
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const body = await response.text();
    if (response.headers.get('content-type')?.includes('text/html')) this.lastBody = body;
    return { status: response.status, location: response.headers.get('location'), headers: response.headers, setCookies, body };
  }
}

/** Signs up a fresh user and returns the logged-in client. */
export async function signedUpClient(baseUrl: string, email: string, password = 'correct horse battery'): Promise<ConsoleClient> {
  const client = new ConsoleClient(baseUrl);
  await client.get('/console/signup');
  const reply = await client.post('/console/signup', { email, password, next: '/console/keys' });
  if (reply.status !== 303) throw new Error(`sign-up failed with ${reply.status}: ${reply.body.slice(0, 500)}`);
  await client.get('/console/keys');
  return client;
}
