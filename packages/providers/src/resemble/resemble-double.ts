// Fake of Resemble AI: the synthesis server's POST /stream (streaming WAV, PCM_16 at the asked rate) and the
// management API's GET /api/v2/voices (page / page_size, `{success, page, num_pages, page_size, items}`), with
// `{success: false, message}` errors. Mounted under /resemble (its generic paths stay apart from other doubles):
// synthesis URL `<origin>/resemble`, management base URL `<origin>/resemble/api`.

import { pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
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
import type { ResembleVoice } from './resemble-api-types.js';

export const RESEMBLE_FAKE_MOUNT = '/resemble';
const MODELS = new Set(['chatterbox', 'chatterbox-turbo', 'chatterbox-multilingual']);
const PRECISIONS = new Set(['MULAW', 'PCM_16', 'PCM_24', 'PCM_32']);
const SAMPLE_RATES = new Set([8000, 16000, 22050, 32000, 44100, 48000]);
const MAX_TEXT = 3000;
const MAX_PAGE_SIZE = 1000;

function voice(uuid: string, name: string, language: string, status = 'Ready'): ResembleVoice {
  return {
    uuid, name, status, voice_status: status, default_language: language, supported_languages: [language],
    created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
  };
}

/** The account's voices (Resemble voice uuids are 8 hex characters); one still building. */
export const RESEMBLE_FAKE_VOICES: ResembleVoice[] = [
  voice('55592656', 'Lucy', 'en-US'),
  voice('fb2d2858', 'Aaron', 'en-GB'),
  voice('25c7823f', 'Beth', 'en-US'),
  voice('a72d9fca', 'Mateo', 'es-ES'),
  voice('3f5e2c19', 'Our Clone', 'en-US'),
  voice('9b0c1d2e', 'Still Training', 'en-US', 'Training'),
];
const READY_VOICES = new Set(RESEMBLE_FAKE_VOICES.filter((entry) => entry.voice_status === 'Ready').map((entry) => entry.uuid));

function resembleError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { success: false, message: `${message} [${context.leakMarker}]` });
}

/** Bearer as the docs show; the SDK's synthesis calls send x-access-token, the management calls Token token=. */
function authorized(request: FakeSpeechRequest, context: FakeContext): boolean {
  const authorization = headerValue(request.headers, 'authorization');
  return (
    authorization === `Bearer ${context.apiKey}` ||
    authorization === `Token token=${context.apiKey}` ||
    headerValue(request.headers, 'x-access-token') === context.apiKey
  );
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => resembleError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('The request body must be a JSON object');
  const body = request.body;
  if (typeof body.data !== 'string' || body.data.length === 0) return invalid('data is required');
  if (countCharacters(body.data) > MAX_TEXT) return invalid(`data must be at most ${MAX_TEXT} characters`);
  if (typeof body.voice_uuid !== 'string' || body.voice_uuid.length === 0) return invalid('voice_uuid is required');
  if (body.precision !== undefined && !PRECISIONS.has(body.precision as string)) return invalid('precision is not supported');
  if (body.sample_rate !== undefined && !SAMPLE_RATES.has(body.sample_rate as number)) return invalid('sample_rate is not supported');
  if (body.model !== undefined && !MODELS.has(body.model as string)) return invalid('model is not supported');
  if (body.project_uuid !== undefined && typeof body.project_uuid !== 'string') return invalid('project_uuid must be a string');
  if (!READY_VOICES.has(body.voice_uuid)) return resembleError(404, 'Voice not found', context);
  return undefined;
}

function stream(request: FakeSpeechRequest, context: FakeContext) {
  const bodyError = validateBody(request, context);
  if (bodyError) return bodyError;
  const body = request.body as { data: string; precision?: string; sample_rate?: number };
  // The real default is PCM_32; the double's tone is 16-bit only, so it does not pretend otherwise.
  if (body.precision !== 'PCM_16') return resembleError(400, 'The fake only simulates PCM_16', context);
  const sampleRate = body.sample_rate ?? 22_050;
  return { type: 'audio' as const, audio: wavToneAudio(sampleRate), contentType: 'audio/wav', bytesPerSecond: sampleRate * 2, characters: countCharacters(body.data) };
}

function listVoices(request: FakeSpeechRequest, context: FakeContext) {
  const page = Number(request.query.get('page') ?? '1');
  const pageSize = Number(request.query.get('page_size') ?? '10');
  if (!Number.isInteger(page) || page < 1) return resembleError(400, 'page must be a positive integer', context);
  if (!Number.isInteger(pageSize) || pageSize < 10 || pageSize > MAX_PAGE_SIZE) return resembleError(400, 'page_size must be between 10 and 1000', context);
  const numPages = Math.max(1, Math.ceil(RESEMBLE_FAKE_VOICES.length / pageSize));
  const items = RESEMBLE_FAKE_VOICES.slice((page - 1) * pageSize, page * pageSize);
  return jsonReply({ success: true, page, num_pages: numPages, page_size: pageSize, items });
}

export const resembleFake: FakeProviderHandler = {
  kind: 'resemble',
  basePath: RESEMBLE_FAKE_MOUNT,
  ownsPath: (pathname) => pathname.startsWith(`${RESEMBLE_FAKE_MOUNT}/`),
  prepareAudio: () => {
    pcmToneAudio(44_100);
  },
  handle(request, context) {
    const path = request.pathname.slice(RESEMBLE_FAKE_MOUNT.length);
    if (path !== '/stream' && path !== '/api/v2/voices') return jsonError(404, { error: 'Not Found' });
    if (request.method !== (path === '/stream' ? 'POST' : 'GET')) return jsonError(405, { error: 'Method Not Allowed' });
    if (!authorized(request, context)) return resembleError(401, 'Invalid API token', context);
    return path === '/stream' ? stream(request, context) : listVoices(request, context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = { 400: 'Bad request', 401: 'Invalid API token', 402: 'Insufficient balance', 403: 'Forbidden', 429: 'Rate limit exceeded' };
    return resembleError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { success: false, message: leakMarker, error_name: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
