// The three ways a command fails, each with its exit code: bad arguments (2), an API answer or a
// local problem such as a missing login (1).
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export class CliError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CliError';
  }
}

/** Which credential went with a request, so a refusal can say what the command needed instead. */
export type TokenKind = 'session' | 'api_key' | 'none';

export class ApiError extends Error {
  readonly exitCode = 1;
  constructor(
    readonly status: number,
    /** The spec's machine code, or undefined when the body was not a spec error (a proxy's page, say). */
    readonly code: string | undefined,
    readonly details: string | undefined,
    readonly tokenKind: TokenKind,
    /** stripe_3ds_required: the page where the payment is confirmed; card_declined: the issuer's reason. */
    readonly extra: { url?: string; declineCode?: string } = {},
  ) {
    super(`${status} ${code ?? 'unknown'}${details ? `: ${details}` : ''}`);
    this.name = 'ApiError';
  }
}

/** openapi-fetch hands back the parsed JSON body, or the raw text when it was not JSON. */
export function apiErrorFrom(response: Response, body: unknown, tokenKind: TokenKind): ApiError {
  if (body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
    const { error, details, url, decline_code: declineCode } = body as { error: string; details?: unknown; url?: unknown; decline_code?: unknown };
    const extra = {
      ...(typeof url === 'string' && /^https?:\/\//.test(url) ? { url } : {}),
      ...(typeof declineCode === 'string' ? { declineCode } : {}),
    };
    return new ApiError(response.status, error, typeof details === 'string' ? details : undefined, tokenKind, extra);
  }
  const text = typeof body === 'string' ? body.trim().slice(0, 200) : undefined;
  return new ApiError(response.status, undefined, text || response.statusText || undefined, tokenKind);
}
