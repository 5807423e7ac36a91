// Fake of Speechify's POST /v1/audio/stream and GET /v1/voices: Bearer auth, GetStreamRequest validation,
// `{error}` bodies, and chunked raw audio chosen by output_format or the Accept header (mp3, or pcm served as
// `audio/L16;rate=…;channels=1`). Mounted under /speechify: its /v1/audio/ paths overlap OpenAI's in the
// combined fake, so clients' base URL is `<origin>/speechify` (a proxy-style path prefix).

import { mp3ToneAudio, pcmToneAudio } from '../testing/audio/tone-audio.js';
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
import type { SpeechifyVoice } from './speechify-api-types.js';

export const SPEECHIFY_FAKE_MOUNT = '/speechify';
const MODELS = new Set(['simba-english', 'simba-multilingual', 'simba-3.0', 'simba-3.2', 'simba-base', 'simba-turbo']);
const ACCEPTS = new Set(['audio/mpeg', 'audio/ogg', 'audio/aac', 'audio/pcm']);
const PCM_RATES = new Set([8000, 16000, 22050, 24000, 44100, 48000]);
const MP3_BIT_RATES = new Set([32, 48, 64, 96, 128, 192]);
const MAX_TEXT = 20_000;

function voice(id: string, name: string, gender: string, locale: string, models: string[], type = 'shared'): SpeechifyVoice {
  const preview = type === 'shared' ? `https://storage.googleapis.com/speechify-api-cdn/previews/${id}.mp3` : null;
  return {
    id, display_name: name, gender, locale, type, avatar_image: null, preview_audio: preview, tags: type === 'shared' ? ['timbre:warm'] : [],
    models: models.map((model) => ({ name: model, languages: [{ locale, preview_audio: preview }] })),
  };
}

/** The account's voices: shared ones plus one personal clone. */
export const SPEECHIFY_FAKE_VOICES: SpeechifyVoice[] = [
  voice('george', 'George', 'male', 'en-US', ['simba-english', 'simba-multilingual', 'simba-3.0']),
  voice('henry', 'Henry', 'male', 'en-US', ['simba-english', 'simba-multilingual', 'simba-3.0']),
  voice('harper_32', 'Harper', 'female', 'en-US', ['simba-3.0', 'simba-3.2']),
  voice('imogen_32', 'Imogen', 'female', 'en-GB', ['simba-3.0', 'simba-3.2']),
  voice('lucia', 'Lucia', 'female', 'es-ES', ['simba-multilingual']),
  voice('4c1b5f3e-8e0c-4f8a-9d52-6a1f0c2b7e11', 'Our Narrator', 'notSpecified', 'en-US', ['simba-english'], 'personal'),
];
const VOICE_IDS = new Set(SPEECHIFY_FAKE_VOICES.map((entry) => entry.id));

function speechifyError(status: number, message: string, context: FakeContext, headers?: Record<string, string>): FakeErrorReply {
  return jsonError(status, { error: `${message} [${context.leakMarker}]` }, headers);
}

type AudioChoice = { kind: 'mp3'; sampleRate: number; kbps: number } | { kind: 'pcm'; sampleRate: number } | { kind: 'other' };

/** output_format wins; without it the Accept header picks the container (defaults: 24 kHz). */
function audioChoice(outputFormat: unknown, accept: string | undefined): AudioChoice | undefined {
  if (outputFormat === undefined) {
    if (accept === undefined || accept === '*/*' || accept === 'audio/mpeg') return { kind: 'mp3', sampleRate: 24_000, kbps: 128 };
    if (accept === 'audio/pcm') return { kind: 'pcm', sampleRate: 24_000 };
    return ACCEPTS.has(accept) ? { kind: 'other' } : undefined;
  }
  if (typeof outputFormat !== 'string') return undefined;
  const pcm = /^pcm_(\d+)$/.exec(outputFormat);
  if (pcm && PCM_RATES.has(Number(pcm[1]))) return { kind: 'pcm', sampleRate: Number(pcm[1]) };
  const mp3 = /^mp3_(22050|24000)_(\d+)$/.exec(outputFormat);
  if (mp3 && MP3_BIT_RATES.has(Number(mp3[2]))) return { kind: 'mp3', sampleRate: Number(mp3[1]), kbps: Number(mp3[2]) };
  return ['wav_24000', 'wav_48000', 'ulaw_8000', 'ogg_24000', 'aac_24000'].includes(outputFormat) ? { kind: 'other' } : undefined;
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => speechifyError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('The request body must be a JSON object');
  const body = request.body;
  if (typeof body.input !== 'string' || body.input.length === 0) return invalid('input is required');
  if (countCharacters(body.input) > MAX_TEXT) return invalid(`input must be at most ${MAX_TEXT} characters`);
  if (typeof body.voice_id !== 'string' || body.voice_id.length === 0) return invalid('voice_id is required');
  if (body.model !== undefined && !MODELS.has(body.model as string)) return invalid('model is not supported');
  if (body.language !== undefined && typeof body.language !== 'string') return invalid('language must be a string');
  if (body.options !== undefined) {
    if (!isRecord(body.options)) return invalid('options must be an object');
    for (const name of ['loudness_normalization', 'text_normalization']) {
      if (body.options[name] !== undefined && typeof body.options[name] !== 'boolean') return invalid(`options.${name} must be a boolean`);
    }
  }
  if (!VOICE_IDS.has(body.voice_id)) return speechifyError(404, `voice ${body.voice_id} not found`, context);
  return undefined;
}

function authorize(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const authorization = headerValue(request.headers, 'authorization');
  if (authorization === `Bearer ${context.apiKey}`) return undefined;
  return speechifyError(401, authorization ? 'Invalid API key' : 'Missing Authorization header', context);
}

function stream(request: FakeSpeechRequest, context: FakeContext) {
  const bodyError = validateBody(request, context);
  if (bodyError) return bodyError;
  const body = request.body as Record<string, unknown>;
  const choice = audioChoice(body.output_format, headerValue(request.headers, 'accept'));
  if (!choice) return speechifyError(400, 'output_format or Accept is not supported', context);
  const characters = countCharacters(body.input as string);
  if (choice.kind === 'mp3') {
    return { type: 'audio' as const, audio: mp3ToneAudio(choice.kbps, choice.sampleRate), contentType: 'audio/mpeg', bytesPerSecond: (choice.kbps * 1000) / 8, characters };
  }
  if (choice.kind === 'pcm') {
    const contentType = `audio/L16;rate=${choice.sampleRate};channels=1`;
    return { type: 'audio' as const, audio: pcmToneAudio(choice.sampleRate), contentType, bytesPerSecond: choice.sampleRate * 2, characters };
  }
  return speechifyError(400, 'The fake only simulates mp3 and pcm output', context);
}

export const speechifyFake: FakeProviderHandler = {
  kind: 'speechify',
  basePath: SPEECHIFY_FAKE_MOUNT,
  ownsPath: (pathname) => pathname.startsWith(`${SPEECHIFY_FAKE_MOUNT}/`),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(128);
  },
  handle(request, context) {
    const path = request.pathname.slice(SPEECHIFY_FAKE_MOUNT.length);
    if (path !== '/v1/audio/stream' && path !== '/v1/voices') return jsonError(404, { message: 'Not Found' });
    const expected = path === '/v1/voices' ? 'GET' : 'POST';
    if (request.method !== expected) return jsonError(405, { message: 'Method Not Allowed' });
    const refused = authorize(request, context);
    if (refused) return refused;
    // The whole catalogue in one array unless the caller opts into paging (not needed by the SDK or the router).
    if (path === '/v1/voices') return jsonReply(SPEECHIFY_FAKE_VOICES);
    return stream(request, context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = {
      400: 'Bad request',
      401: 'Invalid API key',
      402: 'Insufficient account balance',
      403: 'Forbidden',
      429: 'Too many requests',
    };
    return speechifyError(status, messages[status] ?? 'Internal server error', context, status === 429 ? { 'retry-after': '1' } : undefined);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { error: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
