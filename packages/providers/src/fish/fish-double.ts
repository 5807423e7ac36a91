// Fake of Fish Audio's POST /v1/tts: Bearer auth, the model header, JSON or msgpack bodies (the official SDK
// sends msgpack), `{status, message}` errors and 422 validation lists, and chunked raw audio (pcm s16le at the
// asked rate, or WAV). Fish's mp3 (32/44.1 kHz) is not simulated: the tone encoder makes 24 kHz only.

import { decode } from '@msgpack/msgpack';
import { mp3ToneAudio, pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
import { FISH_FAKE_VOICE_IDS, FISH_PREVIEW_PATH, listFishModels } from './fish-double-voices.js';
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

/** Voice models the double knows (ids of its own, in Fish's 32-hex shape): its library's trained models. */
export const FISH_FAKE_VOICES = FISH_FAKE_VOICE_IDS;
const PCM_RATES = new Set([8000, 16000, 24000, 32000, 44100]);

function fishError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { status, message: `${message} [${context.leakMarker}]` });
}

function validationError(field: string, msg: string, context: FakeContext): FakeErrorReply {
  return jsonError(422, [{ loc: ['body', field], type: 'value_error', msg: `${msg} [${context.leakMarker}]`, ctx: {}, in: 'body' }]);
}

/** JSON, or msgpack as the SDK sends it. */
function readBody(request: FakeSpeechRequest): Record<string, unknown> | undefined {
  const type = headerValue(request.headers, 'content-type') ?? '';
  if (type.startsWith('application/msgpack')) {
    try {
      const decoded = decode(request.rawBody ?? new Uint8Array(0));
      return isRecord(decoded) ? decoded : undefined;
    } catch {
      return undefined;
    }
  }
  return request.bodyIsJson && isRecord(request.body) ? request.body : undefined;
}

function validate(body: Record<string, unknown>, context: FakeContext): FakeErrorReply | undefined {
  if (typeof body.text !== 'string' || body.text.length === 0) return validationError('text', 'Field required', context);
  if (body.format !== undefined && !['wav', 'pcm', 'mp3', 'opus'].includes(body.format as string)) return validationError('format', 'Invalid format', context);
  if (body.sample_rate !== undefined && typeof body.sample_rate !== 'number') return validationError('sample_rate', 'Must be an integer', context);
  const prosody = body.prosody;
  if (prosody !== undefined) {
    if (!isRecord(prosody)) return validationError('prosody', 'Must be an object', context);
    const speed = prosody.speed;
    if (speed !== undefined && (typeof speed !== 'number' || speed < 0.5 || speed > 2)) return validationError('prosody', 'speed must be between 0.5 and 2', context);
  }
  const chunk = body.chunk_length;
  if (chunk !== undefined && (typeof chunk !== 'number' || chunk < 100 || chunk > 300)) return validationError('chunk_length', 'Must be between 100 and 300', context);
  if (body.reference_id !== undefined && (typeof body.reference_id !== 'string' || !FISH_FAKE_VOICES.has(body.reference_id))) {
    return fishError(404, 'Reference model not found', context);
  }
  return undefined;
}

function listModels(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'GET') return jsonError(405, { detail: 'Method Not Allowed' });
  if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return fishError(401, 'Invalid api key', context);
  const listed = listFishModels(request);
  if ('type' in listed) return listed;
  return jsonError(422, [{ loc: ['query', listed.loc], type: 'value_error', msg: `${listed.msg} [${context.leakMarker}]`, ctx: {}, in: 'query' }]);
}

export const fishFake: FakeProviderHandler = {
  kind: 'fish',
  // The SDK's base URL is the bare origin; paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname === '/v1/tts' || pathname.startsWith('/v1/tts/') || pathname === '/model' || pathname.startsWith(FISH_PREVIEW_PATH),
  prepareAudio: () => {
    pcmToneAudio();
  },
  handle(request, context) {
    if (request.pathname.startsWith(FISH_PREVIEW_PATH)) {
      return { type: 'audio', audio: mp3ToneAudio(64), contentType: 'audio/mpeg', bytesPerSecond: 8000, characters: 30 };
    }
    if (request.pathname === '/model') return listModels(request, context);
    if (request.pathname !== '/v1/tts') return jsonError(404, { detail: 'Not Found' });
    if (request.method !== 'POST') return jsonError(405, { detail: 'Method Not Allowed' });
    if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return fishError(401, 'Invalid api key', context);
    const body = readBody(request);
    if (!body) return validationError('body', 'Body must be JSON or msgpack', context);
    const problem = validate(body, context);
    if (problem) return problem;
    // An unknown or missing `model` header is served (and billed) as the default model, as Fish does.
    const characters = countCharacters(body.text as string);
    const format = (body.format as string | undefined) ?? 'mp3';
    const sampleRate = (body.sample_rate as number | undefined) ?? 44_100;
    if ((format === 'pcm' || format === 'wav') && PCM_RATES.has(sampleRate)) {
      const audio = format === 'pcm' ? pcmToneAudio(sampleRate) : wavToneAudio(sampleRate);
      return { type: 'audio', audio, contentType: format === 'pcm' ? 'audio/pcm' : 'audio/wav', bytesPerSecond: sampleRate * 2, characters };
    }
    return fishError(400, 'The fake only simulates pcm and wav at 8, 16, 24, 32 or 44.1 kHz', context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = { 400: 'Bad request', 401: 'Invalid api key', 402: 'Insufficient balance', 403: 'Forbidden', 429: 'Too many requests' };
    return fishError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { status: leakMarker, message: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
