// Drives the web console over plain HTTP, as a browser without JavaScript would: forms, the
// session cookie and the hidden CSRF field. Used to sign up and to approve device codes in API suites.
export class ConsoleClient {
  private cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  private cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...value] = pair!.split('=');
      if (name) this.cookies.set(name.trim(), value.join('='));
    }
  }

  async get(path: string): Promise<{ status: number; html: string; location: string | null }> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: { cookie: this.cookieHeader() }, redirect: 'manual' });
    this.remember(response);
    return { status: response.status, html: await response.text(), location: response.headers.get('location') };
  }

  /** Submits the form on `path` whose action matches, copying its hidden fields (CSRF) and adding `fields`. */
  async submit(path: string, action: RegExp, fields: Record<string, string>, buttonText?: string) {
    const page = await this.get(path);
    return this.submitFromHtml(page.html, path, action, buttonText, fields);
  }

  /** Like submit(), on a page already fetched; `buttonText` picks the form holding that button and sends its name/value. */
  async submitFromHtml(html: string, path: string, action: RegExp, buttonText?: string, fields: Record<string, string> = {}) {
    const forms = [...html.matchAll(/<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)]
      .filter((match) => action.test(decodeEntities(match[1]!)))
      .filter((match) => !buttonText || new RegExp(`<button[^>]*>\\s*${buttonText}\\s*</button>`).test(match[2]!));
    const form = forms[0];
    if (!form) throw new Error(`no form matching ${action} ${buttonText ?? ''} on ${path}:\n${html.slice(0, 3000)}`);
    const button = buttonText ? new RegExp(`<button([^>]*)>\\s*${buttonText}\\s*</button>`).exec(form[2]!)?.[1] ?? '' : '';
    const buttonName = /name="([^"]*)"/.exec(button)?.[1];
    const buttonValue = /value="([^"]*)"/.exec(button)?.[1];
    const body = new URLSearchParams();
    for (const hidden of form[2]!.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
      const name = /name="([^"]*)"/.exec(hidden[0])?.[1];
      const value = /value="([^"]*)"/.exec(hidden[0])?.[1] ?? '';
      if (name) body.set(name, decodeEntities(value));
    }
    for (const [name, value] of Object.entries(fields)) body.set(name, value);
    if (buttonName) body.set(buttonName, decodeEntities(buttonValue ?? ''));
    const response = await fetch(new URL(decodeEntities(form[1]!), `${this.baseUrl}${path}`), {
      method: 'POST',
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      body,
      redirect: 'manual',
    });
    this.remember(response);
    return { status: response.status, html: await response.text(), location: response.headers.get('location') };
  }
}

function decodeEntities(text: string): string {
  return text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
}
