// The speech body's hot-path validator: a hand-specialised form of SpeechRequestSchema that accepts
// exactly the bodies the schema accepts, in a handful of typeof checks instead of a zod parse (whose
// issue tracking and output copying cost more than the rest of the request's validation together).
// It only ever says "valid, and here is what the schema would have returned" or "not sure": a body it
// does not accept goes to the schema, so every error message is zod's own, unchanged. The contract
// test (speech-check.test.ts) holds the two together: the same fields, the same answers on thousands
// of generated bodies.
import { SPEECH_KNOWN_FIELDS, type SpeechRequest } from './speech.js';

const MAX_MODEL = 200;
const MAX_VOICE = 200;
const MAX_INSTRUCTIONS = 4096;

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What `SpeechRequestSchema.parse(body)` returns when `body` (a parsed JSON object) is valid, or
 * undefined when it is not (or is an edge case left to the schema, such as a `__proto__` key that zod
 * drops). Unknown fields are kept, after the schema's own, like zod's looseObject output.
 */
export function checkSpeechRequest(body: Record<string, unknown>): SpeechRequest | undefined {
  const { model, input, voice, response_format: format, speed, instructions, provider_options: options } = body;
  if (typeof model !== 'string' || model.length < 1 || model.length > MAX_MODEL) return undefined;
  if (typeof input !== 'string' || input.length < 1) return undefined;
  let outputVoice: SpeechRequest['voice'];
  if (typeof voice === 'string') {
    if (voice.length < 1 || voice.length > MAX_VOICE) return undefined;
    outputVoice = voice;
  } else if (isPlainRecord(voice)) {
    // OpenAI's custom-voice object; zod's z.object keeps `id` alone.
    const { id } = voice;
    if (typeof id !== 'string' || id.length < 1 || id.length > MAX_VOICE) return undefined;
    outputVoice = { id };
  } else {
    return undefined;
  }
  if (format !== undefined && format !== 'mp3' && format !== 'pcm') return undefined;
  if (speed !== undefined && (typeof speed !== 'number' || !(speed >= 0.25 && speed <= 4))) return undefined;
  if (instructions !== undefined && (typeof instructions !== 'string' || instructions.length > MAX_INSTRUCTIONS)) return undefined;
  let outputOptions: Record<string, unknown> | undefined;
  if (options !== undefined) {
    if (!isPlainRecord(options) || Object.hasOwn(options, '__proto__')) return undefined;
    outputOptions = { ...options };
  }
  const request: SpeechRequest = { model, input, voice: outputVoice, response_format: format ?? 'mp3' };
  if (speed !== undefined) request.speed = speed;
  if (instructions !== undefined) request.instructions = instructions;
  if (outputOptions !== undefined) request.provider_options = outputOptions;
  for (const field in body) {
    if (!Object.hasOwn(body, field)) continue;
    if (field === '__proto__') return undefined;
    if (!SPEECH_KNOWN_FIELDS.has(field)) (request as Record<string, unknown>)[field] = body[field];
  }
  return request;
}
