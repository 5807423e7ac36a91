// Authorization and other headers: the real credentials, their near misses, and odd header sets.
import fc from 'fast-check';
import type { FuzzIdentities } from '../accounts.js';

export interface CredentialOptions {
  /** Leave the session out (logout would end it for the rest of the run). */
  withoutSession?: boolean;
  /** Mostly the funded pk_ key (speech) or the session (keys, usage): enough requests get past
   *  authentication to exercise what lies behind it. */
  mostly?: 'key' | 'session';
}

/** An Authorization header value, or undefined for none. */
export function authorization(identities: FuzzIdentities, options: CredentialOptions = {}): fc.Arbitrary<string | undefined> {
  const { rich, poor, revokedKey, session, limitedKey } = identities;
  const usableSession = options.withoutSession ? rich.key : session;
  const nearMisses = fc.oneof(
    fc.constantFrom(
      `bearer ${rich.key}`, `BEARER ${poor.key}`, `Bearer  ${rich.key}`, `Bearer ${rich.key} extra`, `Bearer ${rich.key.slice(0, -1)}`,
      `Bearer ${rich.key}x`, `Basic ${Buffer.from(`${rich.key}:`).toString('base64')}`, `Token ${rich.key}`, rich.key, 'Bearer',
      'Bearer ', 'Bearer pk_', 'Bearer vr_session_', `Bearer ${'pk_'.padEnd(600, 'a')}`, `Bearer ${usableSession.toUpperCase()}`,
      `Bearer\t${rich.key}`, '',
    ),
    fc.string({ maxLength: 60 }).filter(isHeaderSafe).map((text) => `Bearer pk_${text}`),
    fc.string({ maxLength: 60 }).filter(isHeaderSafe).map((text) => `Bearer vr_session_${text}`),
    fc.string({ maxLength: 80 }).filter(isHeaderSafe),
  );
  return fc.oneof(
    { weight: options.mostly === 'key' ? 24 : 6, arbitrary: fc.constant(`Bearer ${rich.key}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${poor.key}`) },
    { weight: options.mostly === 'session' ? 24 : 3, arbitrary: fc.constant(`Bearer ${usableSession}`) },
    { weight: 1, arbitrary: fc.constant(`Bearer ${revokedKey}`) },
    { weight: 2, arbitrary: fc.constant(`Bearer ${limitedKey}`) },
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 2, arbitrary: nearMisses },
  );
}

/** node:http refuses header values with CR, LF or other control characters; keep to what it sends. */
export function isHeaderSafe(text: string): boolean {
  return /^[\t\u0020-\u007e\u0080-\u00ff]*$/.test(text);
}

/** `arbitrary` one time in `oneIn`, else null (fc.option's `freq` is the other way round: 1/freq is the chance of null). */
function sometimes<Value>(arbitrary: fc.Arbitrary<Value>, oneIn: number): fc.Arbitrary<Value | null> {
  return fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
}

const organization = fc.oneof(
  fc.constantFrom('personal', 'PERSONAL', ' personal ', '', 'none', '00000000-0000-4000-8000-000000000000', 'x'.repeat(300), '../personal'),
  fc.uuid(),
);

const contentType = fc.constantFrom(
  'application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'text/plain', 'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/merge-patch+json', ';;;', '',
);

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,24}$/).filter((name) => !['content-length', 'transfer-encoding', 'host', 'connection', 'expect', 'upgrade'].includes(name));
const headerValue = fc.string({ maxLength: 60 }).filter(isHeaderSafe);

export interface HeaderSet {
  headers: Record<string, string>;
  oversized: boolean;
}

/** Beyond common server limits: one header of up to 20 KB, or more headers than uWebSockets.js takes (about 50). */
const oversized = fc.oneof(
  fc.integer({ min: 3_000, max: 20_000 }).map((size) => ({ 'x-huge': 'h'.repeat(size) })),
  fc.integer({ min: 45, max: 120 }).map((count) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`x-many-${index}`, String(index)]))),
);

/** Everything besides Authorization: organization, content type, accept, Host, Expect, random and huge headers. */
export function otherHeaders(withBody: boolean): fc.Arbitrary<HeaderSet> {
  return fc
    .record(
      {
        organization: sometimes(organization, 3),
        contentType: withBody ? fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: contentType }) : sometimes(contentType, 4),
        accept: sometimes(fc.constantFrom('*/*', 'application/json', 'audio/mpeg', 'application/octet-stream', 'text/html', ''), 2),
        host: sometimes(fc.constantFrom('evil.example', 'localhost:1', '[::1]:8080', 'a b', '127.0.0.1:99999', 'x'.repeat(300), ''), 8),
        forwarded: sometimes(fc.constantFrom('https', 'gopher', ''), 8),
        // Sent with the body at once, as clients that do not wait for `100 Continue` do (forwarding it was a 500).
        expect: withBody ? sometimes(fc.constant('100-continue'), 8) : fc.constant(null),
        extra: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
        huge: sometimes(oversized, 80),
      },
      { requiredKeys: ['extra'] },
    )
    .map((drawn) => {
      const headers: Record<string, string> = { ...drawn.extra };
      if (drawn.organization != null) headers['x-organization-id'] = drawn.organization;
      if (drawn.contentType != null) headers['content-type'] = drawn.contentType;
      if (drawn.accept != null) headers.accept = drawn.accept;
      if (drawn.host != null) headers.host = drawn.host;
      if (drawn.forwarded != null) headers['x-forwarded-proto'] = drawn.forwarded;
      if (drawn.expect != null) headers.expect = drawn.expect;
      if (drawn.huge != null) Object.assign(headers, drawn.huge);
      return { headers, oversized: drawn.huge != null };
    });
}
