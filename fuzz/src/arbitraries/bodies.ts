// Request bodies: valid-ish speech requests with random fields, key creation, polling, and every way
// to break JSON (truncated, non-object, deeply nested, invalid UTF-8, duplicate keys, over the limit).
import fc from 'fast-check';
import { awkwardText, jsonNumberish } from './primitives.js';

/** A body as sent: text, and whether it must go out as Latin-1 bytes (to smuggle invalid UTF-8). */
export interface BodyText {
  text: string;
  latin1?: boolean;
}

export interface SpeechTarget {
  model: string;
  voices: string[];
  /** Longest input worth generating (local synthesis is slow, so it gets short texts). */
  maxInput: number;
  /** How often to aim at it: providers that answer get more, so enough requests are served and charged. */
  weight: number;
}

/** Mostly what a client sends, now and then something it should not. */
function mostly<Value>(valid: fc.Arbitrary<Value>, invalid: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: invalid });
}

const anyJson: fc.Arbitrary<unknown> = fc.jsonValue({ maxDepth: 3 });

function speechInput(maxInput: number): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.string({ minLength: 1, maxLength: Math.min(80, maxInput) }) },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(40, maxInput) }) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: maxInput + 20 }).map((length) => 'word '.repeat(Math.ceil(length / 5)).slice(0, length)) },
    { weight: 1, arbitrary: awkwardText },
    { weight: 1, arbitrary: fc.constantFrom(null, 5, [], {}, ['a'], true) },
  );
}

/** A speech body aimed at a real model and voice, with random extra or broken fields now and then. */
export function speechBody(targets: SpeechTarget[]): fc.Arbitrary<unknown> {
  const target = fc.oneof(...targets.map((candidate) => ({ weight: candidate.weight, arbitrary: fc.constant(candidate) })));
  const aimed = target.chain((target) =>
    fc.record(
      {
        model: fc.oneof({ weight: 9, arbitrary: fc.constant(target.model) }, { weight: 1, arbitrary: fc.constantFrom(`${target.model} `, target.model.toUpperCase(), target.model.replace('/', '//')) }),
        voice: fc.oneof(
          { weight: 8, arbitrary: fc.constantFrom(...target.voices) },
          { weight: 1, arbitrary: fc.constantFrom(...target.voices).map((id) => ({ id })) },
          { weight: 2, arbitrary: fc.oneof(awkwardText, fc.constantFrom('../../v1/voices', 'a/b?c#d', '%2e%2e', 'x'.repeat(201), 7, null)) },
        ),
        input: speechInput(target.maxInput),
        response_format: mostly(fc.constantFrom('mp3', 'pcm'), fc.constantFrom('opus', 'wav', 'MP3', '', 5, null)),
        speed: mostly(fc.double({ min: 0.25, max: 4, noNaN: true }), jsonNumberish),
        instructions: mostly(fc.string({ maxLength: 40 }), fc.oneof(awkwardText, fc.constant('x'.repeat(4097)), fc.constant(7))),
        stream_format: fc.constantFrom('audio', 'sse'),
        provider_options: mostly(fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 3 }), anyJson),
      },
      { requiredKeys: ['model', 'voice', 'input'] },
    ),
  );
  const random = fc.dictionary(
    fc.oneof(fc.constantFrom('model', 'voice', 'input', 'response_format', 'speed', '__proto__', 'constructor'), fc.string({ maxLength: 12 })),
    fc.oneof(anyJson, awkwardText),
    { maxKeys: 6 },
  );
  return fc.oneof({ weight: 7, arbitrary: aimed }, { weight: 2, arbitrary: random });
}

export const createKeyBody: fc.Arbitrary<unknown> = fc.record(
  {
    name: mostly(fc.stringMatching(/^[a-z][a-z0-9 -]{0,30}$/), fc.oneof(fc.constantFrom('', '   ', 'n'.repeat(101), 5, null, ['x']), awkwardText)),
    maxConcurrency: mostly(fc.integer({ min: 1, max: 10_000 }), jsonNumberish),
    rateLimitPerMinute: mostly(fc.integer({ min: 1, max: 1_000_000 }), jsonNumberish),
    dailySpendCapMicros: mostly(fc.integer({ min: 0, max: 1e12 }), jsonNumberish),
    monthlySpendCapMicros: mostly(fc.integer({ min: 0, max: 1e12 }), jsonNumberish),
    // Fields a client must not choose: the request is strict and refuses them.
    extra: fc.oneof(
      { weight: 6, arbitrary: fc.constant({}) },
      { weight: 1, arbitrary: fc.constantFrom({ keyValue: 'pk_chosen_by_client' }, { accountId: '00000000-0000-4000-8000-000000000000' }) },
    ),
  },
  { requiredKeys: ['name', 'extra'] },
).map(({ extra, ...fields }) => ({ ...fields, ...extra }));

/** PATCH /v1/keys/{id}: the same fields, each may be null (back to the default, or no cap). */
export const updateKeyBody: fc.Arbitrary<unknown> = fc.record(
  {
    name: mostly(fc.stringMatching(/^[a-z][a-z0-9 -]{0,30}$/), fc.constantFrom('', 5, null)),
    maxConcurrency: mostly(fc.oneof(fc.integer({ min: 1, max: 10_000 }), fc.constant(null)), jsonNumberish),
    rateLimitPerMinute: mostly(fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.constant(null)), jsonNumberish),
    dailySpendCapMicros: mostly(fc.oneof(fc.integer({ min: 0, max: 1e9 }), fc.constant(null)), jsonNumberish),
    monthlySpendCapMicros: mostly(fc.oneof(fc.integer({ min: 0, max: 1e9 }), fc.constant(null)), jsonNumberish),
  },
  { requiredKeys: [] },
);

export const pollBody: fc.Arbitrary<unknown> = fc.record(
  { device_code: fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', 'x'.repeat(201), 5, null, [])), extra: anyJson },
  { requiredKeys: [] },
);

/** Serialises a body, usually as proper JSON, sometimes broken in one of many ways. */
export function encodedBody(value: fc.Arbitrary<unknown>, limitBytes: number): fc.Arbitrary<BodyText> {
  const json = value.map((body) => ({ text: JSON.stringify(body) ?? 'null' }));
  const broken: fc.Arbitrary<BodyText> = fc.oneof(
    fc.tuple(json, fc.nat()).map(([body, cut]) => ({ text: body.text.slice(0, cut % Math.max(1, body.text.length)) })),
    json.map((body) => ({ text: `${body.text}}` })),
    json.map((body) => ({ text: `\ufeff${body.text}` })),
    json.map((body) => ({ text: body.text.replace('{', '{"model":"openai/tts-1","model":5,') })),
    fc.constantFrom('', ' ', '[]', '"text"', 'null', '1e999', 'true', '{', '}', '{"a":}', 'NaN', '{"input":"\\ud800"}', '\u0000').map((text) => ({ text })),
    fc.integer({ min: 1_000, max: 40_000 }).map((depth) => ({ text: `{"model":"openai/tts-1","voice":"alloy","input":${'['.repeat(depth)}${']'.repeat(depth)}}` })),
    fc.constantFrom('{"model":"openai/tts-1","voice":"alloy","input":"\u00ff\u00fe caf\u00e9"}', '{"input":"\u00c3\u0028"}').map((text) => ({ text, latin1: true })),
    fc.integer({ min: limitBytes - 64, max: limitBytes + 4_096 }).map((size) => ({
      text: JSON.stringify({ model: 'openai/tts-1', voice: 'alloy', input: 'a'.repeat(Math.max(1, size - 48)) }),
    })),
  );
  return fc.oneof({ weight: 8, arbitrary: json }, { weight: 2, arbitrary: broken });
}
