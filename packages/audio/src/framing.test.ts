import { describe, expect, it } from 'vitest';
import { AudioFormatError } from './errors.js';
import { createFramingDecoder } from './framing.js';
import type { Framing } from './output-description.js';

const audio = Uint8Array.from({ length: 300 }, (_, index) => (index * 37) & 0xff);
const text = (value: string) => new TextEncoder().encode(value);

/** Feeds `body` split at every `step` bytes and joins the decoded audio. */
function decodeSplit(framing: Framing, body: Uint8Array, step: number): Uint8Array {
  const decoder = createFramingDecoder(framing);
  const pieces: Uint8Array[] = [];
  for (let offset = 0; offset < body.length; offset += step) pieces.push(...decoder.push(body.subarray(offset, offset + step)));
  pieces.push(...decoder.end());
  return Buffer.concat(pieces);
}

const parts = [audio.subarray(0, 100), audio.subarray(100, 101), audio.subarray(101)];
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('framing decoders', () => {
  it.each([1, 2, 3, 7, 64, 10_000])('decodes every framing split every %i bytes', (step) => {
    const cases: Array<[Framing, string]> = [
      [{ kind: 'base64' }, b64(audio).replace(/(.{76})/g, '$1\n')],
      [{ kind: 'hex' }, hex(audio)],
      [
        { kind: 'ndjson', audioField: 'audio_base64' },
        parts.map((part, index) => JSON.stringify({ audio_base64: b64(part), alignment: { chars: ['é', '日'] }, index })).join('\r\n') +
          '\n{"isFinal":true}\n',
      ],
      [
        { kind: 'ndjson', audioField: 'data.audio', encoding: 'hex' },
        parts.map((part) => JSON.stringify({ data: { audio: hex(part), status: 1 } })).join('\n'),
      ],
      [
        { kind: 'sse', audioField: 'data' },
        ': keep-alive\n\n' +
          parts.map((part) => `event: chunk\ndata: ${JSON.stringify({ type: 'chunk', data: b64(part), done: false })}\n\n`).join('') +
          'event: done\ndata: {"type":"done","done":true}\n\n',
      ],
      [{ kind: 'sse' }, parts.map((part) => `data:${b64(part)}\r\n\r\n`).join('') + 'data: [DONE]\n\n'],
    ];
    for (const [framing, body] of cases) {
      expect(Buffer.from(decodeSplit(framing, text(body), step)).equals(Buffer.from(audio)), JSON.stringify(framing)).toBe(true);
    }
  });

  it('reads an SSE event whose data spans several data: lines and a stream without the last blank line', () => {
    const body = `data: ${b64(audio).slice(0, 40)}\ndata: ${b64(audio).slice(40)}`;
    // Multi-line data is joined with LF, which base64 decoding ignores.
    expect(Buffer.from(decodeSplit({ kind: 'sse' }, text(body), 5)).equals(Buffer.from(audio))).toBe(true);
  });

  it('keeps only the SSE events asked for', () => {
    const body = `event: audio\ndata: ${b64(parts[0]!)}\n\nevent: timestamps\ndata: ${b64(parts[1]!)}\n\n`;
    expect(decodeSplit({ kind: 'sse', events: ['audio'] }, text(body), 9)).toEqual(Buffer.from(parts[0]!));
  });

  it('takes WebSocket-style messages: JSON text messages and binary messages', () => {
    const decoder = createFramingDecoder({ kind: 'messages', audioField: 'audio' });
    const out = [
      ...decoder.push(JSON.stringify({ audio: b64(parts[0]!) })),
      ...decoder.push(JSON.stringify({ type: 'metadata', words: [] })),
      ...decoder.push(parts[1]!),
      ...decoder.push(JSON.stringify({ audio: b64(parts[2]!), isFinal: true })),
      ...decoder.end(),
    ];
    expect(Buffer.concat(out).equals(Buffer.from(audio))).toBe(true);
  });

  it('raises AudioFormatError for an error message mid-stream, bad JSON and bad encodings', () => {
    const withError = createFramingDecoder({ kind: 'ndjson', audioField: 'audio', errorField: 'error' });
    expect(() => withError.push(text('{"error":{"message":"secret upstream text"}}\n'))).toThrow(AudioFormatError);
    try {
      withError.push(text('{"error":"secret upstream text"}\n'));
    } catch (error) {
      expect((error as Error).message).not.toContain('secret');
    }
    expect(() => createFramingDecoder({ kind: 'ndjson', audioField: 'a' }).push(text('{nope\n'))).toThrow(AudioFormatError);
    expect(() => createFramingDecoder({ kind: 'hex' }).push(text('zz'))).toThrow(AudioFormatError);
    expect(() => createFramingDecoder({ kind: 'sse' }).push(text('event: error\ndata: {"m":1}\n\n'))).toThrow(AudioFormatError);
    expect(() => createFramingDecoder({ kind: 'raw' }).push('text')).toThrow(AudioFormatError);
  });

  it('takes a status code of 0 in errorField as success and any other code as a failure (MiniMax base_resp)', () => {
    const framing = { kind: 'sse', audioField: 'data.audio', encoding: 'hex', errorField: 'base_resp.status_code' } as const;
    const event = (audio: string, code: number) => text(`data: ${JSON.stringify({ data: { audio, status: 1 }, base_resp: { status_code: code, status_msg: '' } })}\n\n`);
    expect(Buffer.concat(createFramingDecoder(framing).push(event('0102', 0))).equals(Buffer.from([1, 2]))).toBe(true);
    expect(() => createFramingDecoder(framing).push(event('', 1004))).toThrow(AudioFormatError);
  });
});
