// Fake of Groq's POST /openai/v1/audio/speech: Bearer auth, the Orpheus models and their voices, WAV answers,
// and Groq's OpenAI-shaped error bodies.

import { randomBytes } from 'node:crypto';
import { SAMPLE_RATE, wavToneAudio } from '../testing/audio/tone-audio.js';
import {
  countCharacters,
  headerValue,
  isRecord,
  jsonError,
  markedHeaders,
  type FakeContext,
  type FakeErrorReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import { GROQ_ARABIC_MODEL, GROQ_ARABIC_VOICES, GROQ_ENGLISH_MODEL, GROQ_ENGLISH_VOICES, GROQ_MAX_INPUT_CHARACTERS } from './groq-catalog.js';

const VOICES_BY_MODEL: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  [GROQ_ENGLISH_MODEL, new Set<string>(GROQ_ENGLISH_VOICES)],
  [GROQ_ARABIC_MODEL, new Set<string>(GROQ_ARABIC_VOICES)],
]);
const RESPONSE_FORMATS = new Set(['flac', 'mp3', 'mulaw', 'ogg', 'wav']);
const SAMPLE_RATES = new Set([8000, 16000, 22050, 24000, 32000, 44100, 48000]);
const SPEECH_PATH = '/openai/v1/audio/speech';

function groqError(status: number, message: string, type: string, code: string | undefined, context: FakeContext): FakeErrorReply {
  return jsonError(
    status,
    { error: { message: `${message} [${context.leakMarker}]`, type, ...(code !== undefined ? { code } : {}) } },
    { 'x-request-id': `req_${randomBytes(13).toString('hex')}` },
  );
}

const invalid = (message: string, context: FakeContext, code?: string) => groqError(400, message, 'invalid_request_error', code, context);

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  if (headerValue(request.headers, 'authorization') === `Bearer ${context.apiKey}`) return undefined;
  return groqError(401, 'Invalid API Key', 'invalid_request_error', 'invalid_api_key', context);
}

function validate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | { input: string; sampleRate: number } {
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('failed to parse request body as JSON', context);
  const body = request.body;
  for (const field of ['model', 'input', 'voice']) {
    if (body[field] === undefined) return invalid(`property '${field}' is missing`, context);
  }
  const voices = typeof body.model === 'string' ? VOICES_BY_MODEL.get(body.model) : undefined;
  if (!voices) {
    return groqError(404, `The model \`${String(body.model)}\` does not exist or you do not have access to it.`, 'invalid_request_error', 'model_not_found', context);
  }
  if (typeof body.input !== 'string' || body.input.length === 0) return invalid("'input' must be a non-empty string", context);
  if (countCharacters(body.input) > GROQ_MAX_INPUT_CHARACTERS) {
    return invalid(`input must be at most ${GROQ_MAX_INPUT_CHARACTERS} characters`, context);
  }
  if (typeof body.voice !== 'string' || !voices.has(body.voice)) {
    return invalid(`voice must be one of [${[...voices].join(' ')}]`, context);
  }
  const format = body.response_format ?? 'wav';
  if (typeof format !== 'string' || !RESPONSE_FORMATS.has(format)) return invalid('response_format must be one of [flac mp3 mulaw ogg wav]', context);
  // As served today: wav only, whatever the SDK's type lists.
  if (format !== 'wav') return invalid(`response_format \`${format}\` is not supported for this model, supported formats: [wav]`, context);
  const sampleRate = body.sample_rate ?? 48_000;
  if (typeof sampleRate !== 'number' || !SAMPLE_RATES.has(sampleRate)) return invalid('sample_rate is not supported', context);
  if (body.speed !== undefined && (typeof body.speed !== 'number' || body.speed < 0.5 || body.speed > 5)) {
    return invalid('speed must be between 0.5 and 5', context);
  }
  for (const key of Object.keys(body)) {
    if (!['model', 'input', 'voice', 'response_format', 'sample_rate', 'speed'].includes(key)) return invalid(`property '${key}' is unsupported`, context);
  }
  return { input: body.input, sampleRate };
}

export const groqFake: FakeProviderHandler = {
  kind: 'groq',
  // groq-sdk's base URL is the bare origin (GROQ_BASE_URL); its routes carry /openai/v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/openai/'),
  prepareAudio: () => {
    wavToneAudio();
  },
  handle(request, context) {
    if (request.pathname !== SPEECH_PATH) return groqError(404, 'Unknown request URL', 'invalid_request_error', 'unknown_url', context);
    if (request.method !== 'POST') return groqError(405, 'Method not allowed', 'invalid_request_error', undefined, context);
    const authError = authenticate(request, context);
    if (authError) return authError;
    const valid = validate(request, context);
    if ('type' in valid) return valid;
    // The tone is generated at 24 kHz; other rates get a tone at that rate (header and samples agree).
    const audio = wavToneAudio(valid.sampleRate === SAMPLE_RATE ? SAMPLE_RATE : valid.sampleRate);
    return {
      type: 'audio',
      audio,
      contentType: 'audio/wav',
      bytesPerSecond: valid.sampleRate * 2,
      characters: countCharacters(valid.input),
      headers: { 'x-request-id': `req_${randomBytes(13).toString('hex')}` },
    };
  },
  errorForStatus(status, _request, context) {
    if (status === 401) return groqError(401, 'Invalid API Key', 'invalid_request_error', 'invalid_api_key', context);
    if (status === 429) {
      return groqError(429, `Rate limit reached for model \`${GROQ_ENGLISH_MODEL}\` on requests per minute (RPM). Please try again in 1s.`, 'requests', 'rate_limit_exceeded', context);
    }
    if (status === 503) return groqError(503, 'Service Unavailable', 'internal_server_error', undefined, context);
    if (status >= 500) return groqError(status, 'Internal Server Error', 'internal_server_error', undefined, context);
    return groqError(status, 'Your request was rejected.', 'invalid_request_error', undefined, context);
  },
  markedError(status, { leakMarker }) {
    const body = { error: { message: leakMarker, type: leakMarker, code: leakMarker } };
    return jsonError(status, body, markedHeaders(leakMarker, 'x-request-id'));
  },
};
