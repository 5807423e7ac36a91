import { describe, expect, it } from 'vitest';
import { AudioFormatError } from './errors.js';
import { createFramingDecoder } from './framing.js';

const audio = Uint8Array.from({ length: 3000 }, (_, index) => (index * 37) & 0xff);
const b64 = Buffer.from(audio).toString('base64');
const framing = { kind: 'json', audioField: 'audioContent' } as const;

function decodeSplit(body: string, step: number): { joined: Buffer; beforeEnd: number } {
  const decoder = createFramingDecoder(framing);
  const bytes = new TextEncoder().encode(body);
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += step) pieces.push(...decoder.push(bytes.subarray(offset, offset + step)));
  const beforeEnd = pieces.reduce((sum, piece) => sum + piece.length, 0);
  pieces.push(...decoder.end());
  return { joined: Buffer.concat(pieces), beforeEnd };
}

describe('json document framing', () => {
  const bodies = {
    pretty: `{\n  "audioContent": "${b64}"\n}\n`,
    compact: JSON.stringify({ audioContent: b64 }),
    'with other fields first': JSON.stringify({ timepoints: [{ markName: 'audioContent', timeSeconds: 1 }], 'a"udioContent': 'x', audioConfig: { audioEncoding: 'MP3', nested: { audioContent: 'AAAA' } }, audioContent: b64, after: ['}', '"'] }),
    'escaped slashes': `{"audioContent":"${b64.replace(/\//g, '\\/')}"}`,
    'unicode escapes': `{"audio\\u0043ontent":"${b64.replace(/=/g, '\\u003d')}"}`,
  };

  it.each(Object.entries(bodies).flatMap(([name, body]) => [1, 3, 7, 100, 1_000_000].map((step) => [name, step, body] as const)))(
    'decodes the %s body split every %i bytes',
    (_name, step, body) => {
      expect(decodeSplit(body, step).joined.equals(Buffer.from(audio))).toBe(true);
    },
  );

  it('hands out audio before the document ends', () => {
    const { beforeEnd } = decodeSplit(bodies.pretty, 512);
    expect(beforeEnd).toBeGreaterThan(audio.length - 10);
  });

  it.each([
    ['a truncated document', `{"audioContent":"${b64.slice(0, 100)}`],
    ['no audio field', '{"other":"AAAA"}'],
    ['an array', '[1,2]'],
    ['content after the document', `{"audioContent":"AAAA"} {}`],
    ['a non-base64 audio field', '{"audioContent":"@@@@"}'],
    ['mismatched brackets', '{"a":[1}'],
  ])('refuses %s', (_case, body) => {
    expect(() => decodeSplit(body, 5)).toThrow(AudioFormatError);
  });
});
