// Fake of Neuphonic: POST /sse/speak/{lang_code} answered as SSE (`data: {"status_code":200,"data":{"audio":
// "<base64 pcm_linear>","text":"","sampling_rate":…}}` events), GET /voices (`{data: {voices}}`), x-api-key auth
// (the JS SDK also sends the key as ?api_key=), FastAPI `{detail}` errors. Mounted under /neuphonic: its
// /voices path overlaps Cartesia's in the combined fake.

import { eventStreamToneAudio } from '../testing/audio/event-stream-audio.js';
import {
  countCharacters,
  headerValue,
  isRecord,
  jsonError,
  jsonReply,
  markedHeaders,
  type FakeContext,
  type FakeErrorReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import type { NeuphonicVoice } from './neuphonic-api-types.js';

export const NEUPHONIC_FAKE_MOUNT = '/neuphonic';
const LANGUAGES = new Set(['en', 'es', 'de', 'nl', 'fr', 'hi', 'ar', 'ja', 'ko', 'zh', 'it', 'pt', 'pl', 'ru', 'sv']);
const SAMPLE_RATES = new Set([8000, 16000, 22050, 24000]);

function voice(id: string, name: string, lang: string, tags: string[], type = 'stock'): NeuphonicVoice {
  return { id, voice_id: id, name, tags, model_availability: ['neu_hq', 'neu_fast'], lang_code: lang, type, created_at: '2025-09-01T12:00:00Z', updated_at: '2025-09-01T12:00:00Z' };
}

export const NEUPHONIC_FAKE_VOICES: NeuphonicVoice[] = [
  voice('eeb488b8-d532-4235-aa57-f070cfc44750', 'Hannah', 'en', ['female', 'british']),
  voice('8e9c4bc8-3979-48ab-8626-df53befc2090', 'Albert', 'en', ['male', 'american']),
  voice('e564ba7e-aa8d-46a2-96a8-8dffedade48f', 'Emily', 'en', ['female']),
  voice('fc854436-2dac-4d21-aa69-ae17b54e98eb', 'Holly', 'en', ['female']),
  voice('0d7b6f4e-2c1a-4b8e-9f3d-5a6b7c8d9e0f', 'Lucía', 'es', ['female', 'spanish']),
  voice('7a1c2e3f-4b5d-4e6f-8a9b-0c1d2e3f4a5b', 'Our Clone', 'en', [], 'cloned'),
];
const VOICE_IDS = new Set(NEUPHONIC_FAKE_VOICES.map((entry) => entry.id));

function detailError(status: number, detail: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { detail: `${detail} [${context.leakMarker}]` });
}

function validationError(field: string, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(422, { detail: [{ loc: ['body', field], msg: `${message} [${context.leakMarker}]`, type: 'value_error' }] });
}

function authorized(request: FakeSpeechRequest, context: FakeContext): boolean {
  return headerValue(request.headers, 'x-api-key') === context.apiKey || request.query.get('api_key') === context.apiKey;
}

/** One SSE event as Neuphonic frames it. */
function sseEvent(sampleRate: number) {
  return (audio: string) => `data: ${JSON.stringify({ status_code: 200, data: { audio, text: '', sampling_rate: sampleRate } })}\n\n`;
}

function speak(request: FakeSpeechRequest, langCode: string, context: FakeContext) {
  if (!request.bodyIsJson || !isRecord(request.body)) return validationError('text', 'Input should be a valid dictionary', context);
  const body = request.body;
  if (!LANGUAGES.has(langCode)) return validationError('lang_code', 'Unsupported language', context);
  if (typeof body.text !== 'string' || body.text.length === 0) return validationError('text', 'Field required', context);
  const speed = body.speed;
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.7 || speed > 2)) return validationError('speed', 'between 0.7 and 2.0', context);
  const sampleRate = body.sampling_rate ?? 24_000;
  if (typeof sampleRate !== 'number' || !SAMPLE_RATES.has(sampleRate)) return validationError('sampling_rate', 'Unsupported sampling rate', context);
  if (body.encoding !== undefined && body.encoding !== 'pcm_linear' && body.encoding !== 'pcm_mulaw') return validationError('encoding', 'Unsupported encoding', context);
  if (body.voice_id !== undefined && (typeof body.voice_id !== 'string' || !VOICE_IDS.has(body.voice_id))) return detailError(404, 'Voice not found', context);
  if (body.encoding === 'pcm_mulaw') return detailError(400, 'The fake only simulates pcm_linear', context);
  const stream = eventStreamToneAudio('neuphonic', sampleRate, sseEvent(sampleRate));
  return { type: 'audio' as const, audio: stream.audio, contentType: 'text/event-stream; charset=utf-8', bytesPerSecond: stream.bytesPerSecond, characters: countCharacters(body.text) };
}

export const neuphonicFake: FakeProviderHandler = {
  kind: 'neuphonic',
  basePath: NEUPHONIC_FAKE_MOUNT,
  ownsPath: (pathname) => pathname.startsWith(`${NEUPHONIC_FAKE_MOUNT}/`),
  prepareAudio: () => {
    eventStreamToneAudio('neuphonic', 24_000, sseEvent(24_000));
  },
  handle(request, context) {
    const path = request.pathname.slice(NEUPHONIC_FAKE_MOUNT.length);
    const speakMatch = /^\/sse\/speak\/([^/]+)$/.exec(path);
    if (!speakMatch && path !== '/voices') return jsonError(404, { detail: 'Not Found' });
    if (request.method !== (speakMatch ? 'POST' : 'GET')) return jsonError(405, { detail: 'Method Not Allowed' });
    if (!authorized(request, context)) return detailError(401, 'Invalid API key', context);
    if (!speakMatch) return jsonReply({ data: { voices: NEUPHONIC_FAKE_VOICES } });
    return speak(request, decodeURIComponent(speakMatch[1]!), context);
  },
  errorForStatus(status, _request, context) {
    const details: Record<number, string> = { 400: 'Bad request', 401: 'Invalid API key', 402: 'Out of credits', 403: 'Forbidden', 429: 'Too many requests' };
    return detailError(status, details[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { detail: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
