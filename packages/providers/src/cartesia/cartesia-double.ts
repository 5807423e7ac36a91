// Fake of Cartesia's POST /tts/bytes: Bearer (or X-API-Key) auth, a required Cartesia-Version header,
// output_format validation and `{error_code,title,message,request_id}` errors (plain text for old versions).

import { randomUUID } from 'node:crypto';
import { mp3ToneAudio, pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
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
import { CARTESIA_FAKE_VOICE_IDS, CARTESIA_PREVIEW_PATH, listCartesiaVoices } from './cartesia-double-voices.js';

/** Voices every request may use: public library voices (ids from Cartesia's library) and the account's clone. */
export const CARTESIA_FAKE_VOICES = new Set(CARTESIA_FAKE_VOICE_IDS);
const MODELS = new Set([
  'sonic-3.5', 'sonic-3', 'sonic-latest', 'sonic-3.5-2026-05-04', 'sonic-3-2026-01-12', 'sonic-3-2025-10-27',
  'sonic-2-2025-04-16', 'sonic-2-2025-05-08', 'sonic-2-2025-06-11', 'sonic-turbo-2025-06-04',
]);
const SUNSET_MODELS = new Set(['sonic', 'sonic-english', 'sonic-multilingual', 'sonic-2-2025-03-07', 'sonic-turbo-2025-03-07']);
const SAMPLE_RATES = new Set([8000, 16000, 22050, 24000, 44100, 48000]);
const BIT_RATES = new Set([32000, 64000, 96000, 128000, 192000]);
const ENCODINGS = new Set(['pcm_s16le', 'pcm_f32le', 'pcm_mulaw', 'pcm_alaw']);
/** From this version on errors are JSON; before it Cartesia sent `Title: Message` text. */
const JSON_ERRORS_SINCE = '2026-03-01';

function cartesiaError(
  status: number,
  errorCode: string | null,
  title: string,
  message: string,
  request: FakeSpeechRequest,
  context: FakeContext,
): FakeErrorReply {
  const fullMessage = `${message} [${context.leakMarker}]`;
  const version = headerValue(request.headers, 'cartesia-version') ?? '';
  if (version !== '' && version < JSON_ERRORS_SINCE) {
    return { type: 'error', status, contentType: 'text/plain; charset=utf-8', body: `${title}: ${fullMessage}` };
  }
  return jsonError(status, { error_code: errorCode, title, message: fullMessage, request_id: randomUUID() });
}

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const authorization = headerValue(request.headers, 'authorization');
  const legacyKey = headerValue(request.headers, 'x-api-key');
  if (authorization === `Bearer ${context.apiKey}` || legacyKey === context.apiKey) return undefined;
  const message = authorization || legacyKey ? 'The API key is invalid or expired' : 'No API key or access token was provided';
  return cartesiaError(401, null, 'Unauthorized', message, request, context);
}

function validateOutputFormat(format: unknown): string | undefined {
  if (!isRecord(format)) return 'output_format is required';
  if (!SAMPLE_RATES.has(format.sample_rate as number)) return 'output_format.sample_rate is not supported';
  if (format.container === 'mp3') {
    return BIT_RATES.has(format.bit_rate as number) ? undefined : 'output_format.bit_rate is required for mp3';
  }
  if (format.container === 'raw' || format.container === 'wav') {
    return ENCODINGS.has(format.encoding as string) ? undefined : 'output_format.encoding is not supported';
  }
  return 'output_format.container must be raw, wav or mp3';
}

function voiceId(voice: unknown): string | undefined {
  if (typeof voice === 'string') return voice;
  // 2026-08-14 accepts {id}; older versions sent {mode: 'id', id}.
  if (isRecord(voice) && typeof voice.id === 'string' && (voice.mode === undefined || voice.mode === 'id')) return voice.id;
  return undefined;
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string, code: string | null = null) =>
    cartesiaError(400, code, 'Invalid request', message, request, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('The request body must be JSON');
  const body = request.body;
  if (typeof body.model_id !== 'string') return invalid('model_id is required');
  if (SUNSET_MODELS.has(body.model_id)) return invalid(`Model ${body.model_id} has been sunset`, 'model_sunsetted');
  if (!MODELS.has(body.model_id)) return invalid(`Model ${body.model_id} does not exist`);
  if (typeof body.transcript !== 'string' || body.transcript.length === 0) return invalid('transcript must be a non-empty string');
  const formatProblem = validateOutputFormat(body.output_format);
  if (formatProblem) return invalid(formatProblem);
  if (body.language !== undefined && body.locale !== undefined) return invalid('language and locale are mutually exclusive');
  const generation = body.generation_config;
  if (generation !== undefined) {
    if (!isRecord(generation)) return invalid('generation_config must be an object');
    const speed = generation.speed;
    if (speed !== undefined && (typeof speed !== 'number' || speed < 0.6 || speed > 1.5)) {
      return invalid('generation_config.speed must be between 0.6 and 1.5');
    }
    const volume = generation.volume;
    if (volume !== undefined && (typeof volume !== 'number' || volume < 0.5 || volume > 2)) {
      return invalid('generation_config.volume must be between 0.5 and 2.0');
    }
  }
  const id = voiceId(body.voice);
  if (id === undefined) return invalid('voice must be an id or {"id": ...}');
  if (!CARTESIA_FAKE_VOICES.has(id)) return cartesiaError(404, null, 'Voice not found', `Voice ${id} was not found`, request, context);
  return undefined;
}

function requireVersion(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  if (/^\d{4}-\d{2}-\d{2}$/.test(headerValue(request.headers, 'cartesia-version') ?? '')) return undefined;
  return cartesiaError(400, null, 'Invalid Cartesia-Version', 'Send a Cartesia-Version header (YYYY-MM-DD)', request, context);
}

function listVoices(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'GET') return cartesiaError(405, null, 'Method Not Allowed', 'Use GET', request, context);
  const refused = authenticate(request, context) ?? requireVersion(request, context);
  if (refused) return refused;
  const listed = listCartesiaVoices(request);
  return 'type' in listed ? listed : cartesiaError(listed.status, null, 'Invalid request', listed.message, request, context);
}

export const cartesiaFake: FakeProviderHandler = {
  kind: 'cartesia',
  // The official SDKs' base URL is the bare host (the API version travels in a header).
  basePath: '',
  // Inworld's /tts/v1/... shares the /tts/ prefix on the combined fake.
  ownsPath: (pathname) => (pathname.startsWith('/tts/') && !pathname.startsWith('/tts/v1/')) || pathname === '/voices' || pathname.startsWith(CARTESIA_PREVIEW_PATH),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(128, 44_100);
  },
  handle(request, context) {
    if (request.pathname.startsWith(CARTESIA_PREVIEW_PATH)) {
      return { type: 'audio', audio: mp3ToneAudio(128), contentType: 'audio/mpeg', bytesPerSecond: 16_000, characters: 30 };
    }
    if (request.pathname === '/voices') return listVoices(request, context);
    if (request.pathname !== '/tts/bytes') {
      return cartesiaError(404, null, 'Not Found', `No route for ${request.pathname}`, request, context);
    }
    if (request.method !== 'POST') return cartesiaError(405, null, 'Method Not Allowed', 'Use POST', request, context);
    const authError = authenticate(request, context);
    if (authError) return authError;
    const versionError = requireVersion(request, context);
    if (versionError) return versionError;
    const bodyError = validateBody(request, context);
    if (bodyError) return bodyError;
    const body = request.body as Record<string, unknown>;
    const format = body.output_format as Record<string, unknown>;
    const characters = countCharacters(body.transcript as string);
    if (format.container === 'mp3') {
      const kbps = (format.bit_rate as number) / 1000;
      // Served at the sample rate asked for; the bit rate is the nearest one that rate's MPEG layer III allows.
      return { type: 'audio', audio: mp3ToneAudio(kbps, format.sample_rate as number), contentType: 'audio/mpeg', bytesPerSecond: (kbps * 1000) / 8, characters };
    }
    const sampleRate = format.sample_rate as number;
    if (format.container === 'raw' && format.encoding === 'pcm_s16le') {
      // At the sample rate asked for; the content type Cartesia sends for raw audio is assumed.
      return { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'application/octet-stream', bytesPerSecond: sampleRate * 2, characters };
    }
    if (format.container === 'wav' && format.encoding === 'pcm_s16le') {
      // A streamed WAV cannot know its length up front: its RIFF and data sizes are 0xFFFFFFFF.
      return { type: 'audio', audio: wavToneAudio(sampleRate), contentType: 'audio/wav', bytesPerSecond: sampleRate * 2, characters };
    }
    return cartesiaError(400, null, 'Invalid request', 'The fake only simulates pcm_s16le (raw or wav) and mp3 output', request, context);
  },
  errorForStatus(status, request, context) {
    const known: Record<number, [string | null, string, string]> = {
      400: [null, 'Invalid request', 'The request was invalid'],
      401: [null, 'Unauthorized', 'The API key is invalid or expired'],
      402: ['insufficient_credits', 'Payment required', 'Your plan has run out of credits'],
      429: ['concurrency_limited', 'Too many concurrent requests', "You have exceeded your plan's concurrency limit."],
      500: [null, 'Internal server error', 'Something went wrong on our side'],
      503: [null, 'Service unavailable', 'The service is temporarily overloaded'],
    };
    const [code, title, message] = known[status] ?? [null, status >= 500 ? 'Server error' : 'Request failed', 'The request failed'];
    return cartesiaError(status, code, title, message, request, context);
  },
  markedError(status, { leakMarker }) {
    const body = { error_code: leakMarker, title: leakMarker, message: leakMarker, request_id: leakMarker, doc_url: leakMarker };
    return jsonError(status, body, markedHeaders(leakMarker, 'x-request-id'));
  },
};
