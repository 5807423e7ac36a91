// The last line of defence before a log line is written: finds secrets inside text, whatever field or
// message they hide in (an error message, a stack, a URL with `?api_key=`, a header echoed into a string),
// and replaces them with [redacted]. It runs over each finished JSON line, so no code path can leak a
// secret by forgetting to redact a field.

export const REDACTED = '[redacted]';

/**
 * Secrets recognisable by their shape. Ours: `pk_` API keys, `vr_session_` tokens, `vr_invite_`
 * invitations, `vr_device_` device codes. Stripe: secret and restricted keys (`sk_`/`rk_` live and
 * test), webhook signing secrets (`whsec_`), client secrets (`pi_…_secret_…`, `seti_…_secret_…`), and
 * publishable keys (`pk_live_`, caught by `pk_`). Providers: OpenAI (`sk-…`, `sk-proj-…`), ElevenLabs
 * (`sk_` + hex), Cartesia (`sk_car_…`) and any other `sk_`-style key. Provider keys without a prefix
 * (older ElevenLabs keys are bare hex) are caught by the literal values the logger is given.
 */
const SHAPES = [
  String.raw`\b(?:pk|sk|rk)_[A-Za-z0-9][A-Za-z0-9_-]{6,}`,
  String.raw`\bsk-[A-Za-z0-9][A-Za-z0-9_-]{6,}`,
  String.raw`\bvr_(?:session|invite|device)_[A-Za-z0-9_-]{4,}`,
  String.raw`\bwhsec_[A-Za-z0-9+/=_-]{4,}`,
  String.raw`\b[a-z]+_[A-Za-z0-9]+_secret_[A-Za-z0-9]{4,}`,
];

/** Credentials carried in text: `Bearer …`, `?api_key=…` style parameters, `user:password@` in URLs. */
const CARRIERS = [
  // A bearer credential (RFC 6750 token68 characters).
  String.raw`\bBearer\s+[A-Za-z0-9._~+/=-]{8,}`,
  // Query or form parameters whose names say secret.
  String.raw`[?&;](?:api[-_]?key|apikey|key|token|access_token|secret|password|xi-api-key|client_secret|session)=[^&\s"'\\]+`,
  // A password in a URL: scheme://user:password@host.
  String.raw`[a-z][a-z0-9+.-]*://[^/\s:@"'\\]*:[^/\s@"'\\]+@`,
];

/**
 * JSON members whose name says secret, at any depth of the serialized line: `"authorization":"…"`,
 * `"xi-api-key":"…"`, `"webhookSecret":"…"`, `"sessionToken":"…"`, `"password":"…"`. Names that only
 * identify a secret (`apiKeyId`, `tokenHash`, `keySuffix`) are kept: they are what an operator needs.
 */
const SECRET_NAME = String.raw`[A-Za-z0-9_-]*(?:authorization|cookie|api[-_]?key|apikey|secret|token|password|passwd|passphrase|keyvalue|key_value)(?![A-Za-z0-9_-]*(?:Id|Ids|Hash|Suffix|Prefix|Count|Kind|Type|Length|ExpiresAt|CreatedAt)")[A-Za-z0-9_-]*`;
const JSON_MEMBER = String.raw`"(${SECRET_NAME})":"(?:[^"\\]|\\.)*"`;

const PATTERN = new RegExp(`${JSON_MEMBER}|${CARRIERS.join('|')}|${SHAPES.join('|')}`, 'gi');

/**
 * What every match of PATTERN contains: a quote (JSON member), `=` (parameters), `@` (URL password),
 * `_` (pk_, sk_, rk_, vr_…_, whsec_, …_secret_), `sk-`, or `bearer`. Text with none of them (most short
 * values: a path, a method, a UUID) cannot hold a recognisable secret, and skips the long alternation.
 */
const MAY_MATCH = /["=@_]|sk-|bearer/i;

function replace(match: string, member: string | undefined): string {
  if (member !== undefined) return `"${member}":"${REDACTED}"`;
  const lower = match.slice(0, 6).toLowerCase();
  if (lower.startsWith('bearer')) return `${match.slice(0, 6)} ${REDACTED}`;
  if (/^[?&;]/.test(match)) return `${match.slice(0, match.indexOf('=') + 1)}${REDACTED}`;
  if (match.endsWith('@')) return `${match.slice(0, match.indexOf(':', match.indexOf('://') + 3) + 1)}${REDACTED}@`;
  return REDACTED;
}

const SECRET_MEMBER_START = new RegExp(`^"(?:${SECRET_NAME})":"`, 'i');

/** Whether a JSON member of this name has its value censored by the scrubber. */
export function isSecretFieldName(name: string): boolean {
  return SECRET_MEMBER_START.test(`"${name}":"`);
}

export type SecretScrubber = (text: string) => string;

/**
 * A scrubber for recognisable secrets plus `literals`: the secret values this process was configured
 * with (provider keys, the Stripe key, the webhook secret), which are replaced wherever they appear,
 * whatever their shape. Literals shorter than 8 characters are ignored (they would redact ordinary words).
 */
export function createSecretScrubber(literals: ReadonlyArray<string | undefined> = []): SecretScrubber {
  const known = [...new Set(literals.filter((value): value is string => typeof value === 'string' && value.length >= 8))]
    // Longest first, so a secret that contains another is replaced whole.
    .sort((a, b) => b.length - a.length);
  // Each literal, and the same secret as JSON escapes it (a key with a quote or backslash in it).
  const forms = known.flatMap((literal) => {
    const escaped = JSON.stringify(literal).slice(1, -1);
    return escaped === literal ? [literal] : [literal, escaped];
  });
  return (text) => {
    let scrubbed = text;
    for (const form of forms) {
      if (scrubbed.includes(form)) scrubbed = scrubbed.split(form).join(REDACTED);
    }
    return MAY_MATCH.test(scrubbed) ? scrubbed.replace(PATTERN, replace) : scrubbed;
  };
}

/** Scrubs recognisable secrets only (no configured literals): for text written outside a logger. */
export const scrubSecrets: SecretScrubber = createSecretScrubber();

/** For the scrubber's own tests: the full pattern and its pre-check. */
export const scrubberPatterns = { pattern: PATTERN, mayMatch: MAY_MATCH };
