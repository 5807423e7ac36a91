// Fake of Rime's POST /v1/rime-tts: Bearer auth, the format chosen by Accept, body validation per model, and
// chunked raw audio (mp3, headerless pcm s16le or WAV at the samplingRate asked for). Error bodies are `{message}`
// (Rime does not document them).

import { mp3ToneAudio, pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
import { RIME_FAKE_SPEAKERS, rimeVoiceData } from './rime-double-voices.js';
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

/** Speakers the double knows, by model: its public speaker catalog (the retired `mist` is not served). */
const SPEAKERS: Record<string, ReadonlySet<string>> = {
  arcana: RIME_FAKE_SPEAKERS.arcana!,
  mistv3: RIME_FAKE_SPEAKERS.mistv3!,
  mistv2: RIME_FAKE_SPEAKERS.mistv2!,
  coda: RIME_FAKE_SPEAKERS.coda!,
};
const TEXT_LIMIT: Record<string, number> = { arcana: 10_000, coda: 10_000, mistv3: 500, mistv2: 500 };
const MP3_KBPS = 128;

function rimeError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { message: `${message} [${context.leakMarker}]` });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => rimeError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('Body must be JSON');
  const body = request.body;
  const model = (body.modelId as string | undefined) ?? 'arcana';
  if (!Object.hasOwn(SPEAKERS, model)) return invalid(`Unknown modelId ${String(model)}`);
  if (typeof body.text !== 'string' || body.text.length === 0) return invalid('text is required');
  if (countCharacters(body.text) > TEXT_LIMIT[model]!) return invalid(`text is longer than ${TEXT_LIMIT[model]} characters`);
  if (typeof body.speaker !== 'string') return invalid('speaker is required');
  const rate = body.samplingRate;
  if (rate !== undefined && (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 4000 || rate > 96_000)) return invalid('samplingRate is out of range');
  for (const name of ['speedAlpha', 'timeScaleFactor'] as const) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'number' || value <= 0 || value > 5)) return invalid(`${name} is out of range`);
  }
  if (!SPEAKERS[model]!.has(body.speaker)) return invalid(`Speaker ${body.speaker} is not available for ${model}`);
  return undefined;
}

export const rimeFake: FakeProviderHandler = {
  kind: 'rime',
  // RIME_BASE_URL is the bare origin (https://users.rime.ai); the path carries /v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/v1/rime-tts') || pathname.startsWith('/data/voices/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    // The speaker catalog is public: no key needed.
    const voiceData = request.method === 'GET' ? rimeVoiceData(request.pathname) : undefined;
    if (voiceData) return voiceData;
    if (request.pathname !== '/v1/rime-tts') return rimeError(404, 'Not found', context);
    if (request.method !== 'POST') return rimeError(405, 'Method not allowed', context);
    if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return rimeError(401, 'Unauthorized', context);
    const bodyError = validateBody(request, context);
    if (bodyError) return bodyError;
    const body = request.body as Record<string, unknown>;
    const characters = countCharacters(body.text as string);
    const sampleRate = (body.samplingRate as number | undefined) ?? 24_000;
    const accept = (headerValue(request.headers, 'accept') ?? '').split(';')[0]!.trim();
    if (accept === 'audio/mp3' || accept === 'audio/mpeg') {
      // The tone encoder makes 24 kHz mp3 only: other rates are not simulated.
      if (sampleRate !== 24_000) return rimeError(400, 'The fake only simulates 24 kHz mp3', context);
      return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'audio/mp3', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters };
    }
    if (accept === 'audio/pcm') return { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'audio/pcm', bytesPerSecond: sampleRate * 2, characters };
    if (accept === 'audio/wav') return { type: 'audio', audio: wavToneAudio(sampleRate), contentType: 'audio/wav', bytesPerSecond: sampleRate * 2, characters };
    return rimeError(400, 'Unsupported Accept header', context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = { 400: 'Bad request', 401: 'Unauthorized', 402: 'Payment required', 403: 'Forbidden', 429: 'Too many requests' };
    return rimeError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { message: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
