// Building blocks: awkward strings and numbers, mangled paths and query strings.
import fc from 'fast-check';

/** Text a person, a bug or an attacker might send: plain, Unicode, control characters, lone surrogates. */
export const awkwardText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '', ' ', '\u0000', '\n', 'a\ud800b', '\udfff', '👋🏽', '\u202ereversed', '%00', '%', '../..', '{}', 'null', '<script>', "'; DROP TABLE ledger_entries; --",
      'ä'.repeat(50), '\\', '"', '\r\n\r\n',
    ),
  },
);

/** Numbers and things that look like numbers, as query values or JSON fields. */
export const numberish = fc.oneof(
  fc.constantFrom('0', '1', '-1', '2', '50', '100', '101', '365', '366', '1000', '1001', '1.5', '1e2', '0x10', ' 5', '5 ', '+5', '05', 'NaN',
    'Infinity', '-0', '9007199254740993', '99999999999999999999', '', 'ten', '%35', '1,2'),
  fc.integer().map(String),
);

export const jsonNumberish: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer({ min: -5, max: 20_000 }),
  fc.constantFrom(0, 1, -1, 1.5, 1e300, -0, 2 ** 53, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 10_000, 10_001, 1_000_000, 1_000_001),
  fc.double({ noNaN: true }),
  fc.constantFrom('5', '', null, true, [], {}),
);

const SEGMENT_TWISTS: Array<(path: string) => string> = [
  (path) => `${path}/`,
  (path) => path.replace('/v1/', '/v1//'),
  (path) => path.toUpperCase(),
  (path) => path.replace('/v1/', '/v1/./'),
  (path) => path.replace('/v1/', '/v1/../v1/'),
  (path) => path.replace('/v1/', '/v1%2F'),
  (path) => path.replace(/\/v1\/(.)/, (_match, first: string) => `/v1/%${first.charCodeAt(0).toString(16)}`),
  (path) => `${path}%00`,
  (path) => `${path}%ZZ`,
  (path) => `${path}%`,
  (path) => `${path}%C0%AF`,
  (path) => `${path}%E2%80%AE`,
  (path) => `${path};jsessionid=1`,
  (path) => `${path}\u00e9`,
  (path) => `/${path}`,
  (path) => path.replace('/v1', '/V1'),
  (path) => `${path}/..`,
  (path) => `${path}#fragment`,
];

/** The path as routed, or one of the many ways to spell it that servers and proxies disagree on. */
export function pathVariant(path: string): fc.Arbitrary<{ path: string; canonical: boolean }> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant({ path, canonical: true }) },
    // A twist that leaves the path as it was (one that edits `/v1/` in `/healthz`) keeps it canonical.
    { weight: 2, arbitrary: fc.constantFrom(...SEGMENT_TWISTS).map((twist) => twist(path)).map((twisted) => ({ path: twisted, canonical: twisted === path })) },
  );
}

const queryKey = (known: string[]) => fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...(known.length ? known : ['limit'])) },
  { weight: 1, arbitrary: fc.constantFrom('', '__proto__', 'constructor', 'limit[]', 'a.b', '%6Cimit', 'LIMIT') },
  { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
);

/** A query string built from known parameter names and awkward values, encoded properly or not. */
export function queryString(known: string[], values: fc.Arbitrary<string> = fc.oneof(numberish, awkwardText)): fc.Arbitrary<string> {
  const pair = fc.tuple(queryKey(known), values, fc.boolean()).map(([key, value, encode]) =>
    encode ? `${percentEncode(key)}=${percentEncode(value)}` : `${rawQueryPart(key)}=${rawQueryPart(value)}`,
  );
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 6, arbitrary: fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join('&')}`) },
    { weight: 1, arbitrary: fc.constantFrom('?', '??', '?&&', '?=', '?limit', '?limit=&limit=5', `?limit=${'9'.repeat(400)}`, '?%', '?a=%ZZ', '?+=+') },
  );
}

/** Percent-encodes the UTF-8 bytes of `text` (lone surrogates become U+FFFD, where encodeURIComponent throws). */
export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((byte) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(byte)) ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** What node:http lets through unencoded (printable Latin-1 without spaces); everything else is percent-encoded. */
function rawQueryPart(text: string): string {
  return [...text].map((character) => (/^[\u0021-\u007e\u00a1-\u00ff]$/.test(character) && character !== '#' ? character : percentEncode(character))).join('');
}
