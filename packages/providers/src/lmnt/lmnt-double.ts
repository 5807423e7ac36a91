// Fake of LMNT's POST /v1/ai/speech/bytes: X-API-Key auth, body validation as the SDK's types describe it,
// `{error: {type, message}}` errors, and chunked raw audio (mp3 at 96 kbps or pcm_s16le at the asked rate).

import { mp3ToneAudio, pcmToneAudio } from '../testing/audio/tone-audio.js';
import { LMNT_FAKE_VOICE_IDS, LMNT_PREVIEW_PATH, listLmntVoices } from './lmnt-double-voices.js';
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

/** Voices the double synthesizes with: its library's ready voices (system ids are lower-case names). */
export const LMNT_FAKE_VOICES = LMNT_FAKE_VOICE_IDS;
const MODELS = new Set(['blizzard']);
const FORMATS = new Set(['aac', 'mp3', 'ulaw', 'wav', 'webm', 'pcm_s16le', 'pcm_f32le']);
const SAMPLE_RATES = new Set([8000, 16000, 24000]);
const LANGUAGES = new Set([
  'auto', 'ar', 'as', 'bn', 'cs', 'da', 'de', 'en', 'es', 'fi', 'fr', 'hi', 'id', 'it', 'ja', 'ko', 'ml', 'mr', 'nl',
  'pl', 'pt', 'ru', 'sk', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'ur', 'vi', 'zh',
]);
const MAX_TEXT = 5000;
const MP3_KBPS = 96;

const TYPE_FOR_STATUS: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'payment_required_error',
  403: 'permission_error',
  404: 'not_found_error',
  422: 'invalid_request_error',
  429: 'rate_limit_error',
};

function lmntError(status: number, message: string, context: FakeContext, type = TYPE_FOR_STATUS[status] ?? 'internal_server_error'): FakeErrorReply {
  return jsonError(status, { error: { type, message: `${message} [${context.leakMarker}]` } }, { 'request-id': `req_${Date.now().toString(36)}` });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => lmntError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('The request body must be a JSON object');
  const body = request.body;
  if (typeof body.text !== 'string' || body.text.length === 0) return invalid('text is required');
  if (countCharacters(body.text) > MAX_TEXT) return invalid(`text must be at most ${MAX_TEXT} characters`);
  if (typeof body.voice !== 'string' || body.voice.length === 0) return invalid('voice is required');
  if (body.model !== undefined && !MODELS.has(body.model as string)) return invalid('model must be blizzard');
  if (body.format !== undefined && !FORMATS.has(body.format as string)) return invalid('format is not supported');
  if (body.sample_rate !== undefined && !SAMPLE_RATES.has(body.sample_rate as number)) return invalid('sample_rate must be 8000, 16000 or 24000');
  if (body.language !== undefined && !LANGUAGES.has(body.language as string)) return invalid('language is not supported');
  for (const name of ['temperature', 'top_p'] as const) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'number' || value < 0)) return invalid(`${name} must be a non-negative number`);
  }
  if (!LMNT_FAKE_VOICES.has(body.voice)) return lmntError(404, `Voice ${body.voice} was not found`, context);
  return undefined;
}

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const key = headerValue(request.headers, 'x-api-key');
  return key === context.apiKey ? undefined : lmntError(401, key ? 'Invalid API key' : 'Missing X-API-Key header', context);
}

function listVoices(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'GET') return jsonError(405, { detail: 'Method Not Allowed' });
  const refused = authenticate(request, context);
  if (refused) return refused;
  const listed = listLmntVoices(request);
  return 'type' in listed ? listed : lmntError(listed.status, listed.message, context);
}

export const lmntFake: FakeProviderHandler = {
  kind: 'lmnt',
  // The SDK's base URL is the bare origin; paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/v1/ai/') || pathname.startsWith(LMNT_PREVIEW_PATH),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    if (request.pathname.startsWith(LMNT_PREVIEW_PATH)) {
      return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters: 30 };
    }
    if (request.pathname === '/v1/ai/voice/list') return listVoices(request, context);
    // A route LMNT does not have answers the web framework's default, not LMNT's error envelope.
    if (request.pathname !== '/v1/ai/speech/bytes') return jsonError(404, { detail: 'Not Found' });
    if (request.method !== 'POST') return jsonError(405, { detail: 'Method Not Allowed' });
    const authError = authenticate(request, context);
    if (authError) return authError;
    const bodyError = validateBody(request, context);
    if (bodyError) return bodyError;
    const body = request.body as Record<string, unknown>;
    const format = (body.format as string | undefined) ?? 'mp3';
    const characters = countCharacters(body.text as string);
    if (format === 'mp3') {
      return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters };
    }
    if (format === 'pcm_s16le') {
      const sampleRate = (body.sample_rate as number | undefined) ?? 24_000;
      return { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'application/octet-stream', bytesPerSecond: sampleRate * 2, characters };
    }
    return lmntError(400, 'The fake only simulates mp3 and pcm_s16le output', context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = {
      400: 'The request was invalid',
      401: 'Invalid API key',
      402: 'Your account has run out of characters',
      403: 'This key may not use this resource',
      429: 'Too many requests',
    };
    return lmntError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { error: { type: leakMarker, message: leakMarker } }, markedHeaders(leakMarker, 'request-id'));
  },
};
