// The base URL people reach this deployment at: PUBLIC_BASE_URL when set, else derived from the
// request (the data plane forwards with x-forwarded-host; `trust proxy` covers the protocol).
import type { Request } from 'express';

export function publicBaseUrl(request: Request, configured: string | undefined): string {
  if (configured) return configured.replace(/\/+$/, '');
  const host = request.get('x-forwarded-host') ?? request.get('host') ?? '127.0.0.1';
  return `${request.protocol}://${host}`;
}
