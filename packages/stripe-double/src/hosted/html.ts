// Plain HTML for the double's hosted pages (Checkout, the 3-D Secure challenge): no scripts, forms only.

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem;color:#1a1f36}
label{display:block;margin-top:.75rem;font-size:.9rem}input{width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1rem;font-size:1rem}.error{color:#b00020}.muted{color:#697386;font-size:.85rem}
table{border-collapse:collapse;font-size:.85rem}td{padding:.2rem .5rem}</style></head>
<body><p class="muted">Stripe (local test double)</p>${body}</body></html>`;
}

export type HostedResult = { kind: 'page'; status: number; html: string } | { kind: 'redirect'; location: string };

export const showPage = (title: string, body: string, status = 200): HostedResult => ({ kind: 'page', status, html: page(title, body) });
export const redirectTo = (location: string): HostedResult => ({ kind: 'redirect', location });

/** Appends query parameters to a URL that may already have some, as Stripe does to return URLs. */
export function withQuery(url: string, parameters: Record<string, string>): string {
  const query = new URLSearchParams(parameters).toString();
  const hashAt = url.indexOf('#');
  const base = hashAt === -1 ? url : url.slice(0, hashAt);
  const hash = hashAt === -1 ? '' : url.slice(hashAt);
  return `${base}${base.includes('?') ? '&' : '?'}${query}${hash}`;
}
