// Fake of Hume's POST /v0/tts/stream/file: X-Hume-Api-Key auth, PostedTts validation, `{code, error, message}`
// and 422 `{detail: [...]}` errors, and streamed 48 kHz audio (raw pcm s16le mono, or a streaming WAV).

import { pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
import { humeFakeVoices, listHumeVoices } from './hume-double-voices.js';
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

const SAMPLE_RATE = 48_000;
/** Library voices the double knows, by name; the ids are the double's own (real library ids are UUIDs too). */
export const HUME_FAKE_VOICES = humeFakeVoices('HUME_AI');
/** The account's own voices (provider CUSTOM_VOICE), by name. */
const CUSTOM_VOICES = humeFakeVoices('CUSTOM_VOICE');
const MAX_TEXT = 5000;

function humeError(status: number, error: string, message: string, context: FakeContext, code = `E${status}0`): FakeErrorReply {
  return jsonError(status, { code, error, message: `${message} [${context.leakMarker}]` });
}

/** FastAPI-style validation answer, as Hume's 422 (HttpValidationError). */
function validationError(loc: (string | number)[], msg: string, context: FakeContext): FakeErrorReply {
  return jsonError(422, { detail: [{ loc: ['body', ...loc], msg: `${msg} [${context.leakMarker}]`, type: 'value_error' }] });
}

function knownVoice(voice: unknown): boolean | undefined {
  if (!isRecord(voice)) return undefined;
  if (voice.provider !== undefined && voice.provider !== 'HUME_AI' && voice.provider !== 'CUSTOM_VOICE') return undefined;
  // Provider defaults to CUSTOM_VOICE, as in Hume's API: library voices need HUME_AI.
  const known = voice.provider === 'HUME_AI' ? HUME_FAKE_VOICES : CUSTOM_VOICES;
  if (typeof voice.id === 'string') return [...known.values()].includes(voice.id);
  if (typeof voice.name === 'string') return known.has(voice.name);
  return undefined;
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  if (!request.bodyIsJson || !isRecord(request.body)) return validationError([], 'Input should be a valid dictionary', context);
  const body = request.body;
  if (!Array.isArray(body.utterances) || body.utterances.length === 0) return validationError(['utterances'], 'Field required', context);
  for (const [index, utterance] of body.utterances.entries()) {
    if (!isRecord(utterance) || typeof utterance.text !== 'string') return validationError(['utterances', index, 'text'], 'Field required', context);
    if (countCharacters(utterance.text) > MAX_TEXT) return validationError(['utterances', index, 'text'], `at most ${MAX_TEXT} characters`, context);
    const speed = utterance.speed;
    if (speed !== undefined && (typeof speed !== 'number' || speed < 0.5 || speed > 2)) return validationError(['utterances', index, 'speed'], 'between 0.5 and 2', context);
    if (utterance.description !== undefined && typeof utterance.description !== 'string') return validationError(['utterances', index, 'description'], 'Input should be a valid string', context);
    if (utterance.voice !== undefined) {
      const known = knownVoice(utterance.voice);
      if (known === undefined) return validationError(['utterances', index, 'voice'], 'Input should be a voice id or name', context);
      if (!known) return humeError(404, 'Not Found', 'The voice was not found', context);
    }
  }
  if (body.version !== undefined && body.version !== '1' && body.version !== '2') return validationError(['version'], "Input should be '1' or '2'", context);
  if (body.version === '2' && body.utterances.some((utterance) => !isRecord(utterance) || utterance.voice === undefined)) {
    return humeError(400, 'Bad Request', 'Octave 2 requires a voice', context);
  }
  const format = body.format;
  if (format !== undefined && (!isRecord(format) || !['mp3', 'wav', 'pcm'].includes(format.type as string))) {
    return validationError(['format'], "Input should be mp3, wav or pcm", context);
  }
  return undefined;
}

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const key = headerValue(request.headers, 'x-hume-api-key');
  return key === context.apiKey ? undefined : humeError(401, 'Unauthorized', key ? 'Invalid API key' : 'Missing X-Hume-Api-Key header', context);
}

function listVoices(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'GET') return jsonError(405, { detail: 'Method Not Allowed' });
  const refused = authenticate(request, context);
  if (refused) return refused;
  const listed = listHumeVoices(request);
  return 'type' in listed ? listed : jsonError(422, { detail: [{ loc: ['query', listed.loc], msg: `${listed.msg} [${context.leakMarker}]`, type: 'value_error' }] });
}

export const humeFake: FakeProviderHandler = {
  kind: 'hume',
  // The SDK's base URL is the bare origin; paths carry /v0.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/v0/tts'),
  prepareAudio: () => {
    pcmToneAudio(SAMPLE_RATE);
  },
  handle(request, context) {
    if (request.pathname === '/v0/tts/voices') return listVoices(request, context);
    if (request.pathname !== '/v0/tts/stream/file') return jsonError(404, { detail: 'Not Found' });
    if (request.method !== 'POST') return jsonError(405, { detail: 'Method Not Allowed' });
    const authError = authenticate(request, context);
    if (authError) return authError;
    const bodyError = validateBody(request, context);
    if (bodyError) return bodyError;
    const body = request.body as { utterances: Array<{ text: string }>; format?: { type: string } };
    const characters = body.utterances.reduce((sum, utterance) => sum + countCharacters(utterance.text), 0);
    const type = body.format?.type ?? 'mp3';
    if (type === 'pcm') return { type: 'audio', audio: pcmToneAudio(SAMPLE_RATE), contentType: 'audio/pcm', bytesPerSecond: SAMPLE_RATE * 2, characters };
    if (type === 'wav') return { type: 'audio', audio: wavToneAudio(SAMPLE_RATE), contentType: 'audio/wav', bytesPerSecond: SAMPLE_RATE * 2, characters };
    // Hume's mp3 is 48 kHz MPEG-1; the double's tone encoder makes 24 kHz only, so it does not pretend.
    return humeError(400, 'Bad Request', 'The fake only simulates pcm and wav output', context);
  },
  errorForStatus(status, _request, context) {
    const names: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 429: 'Too Many Requests' };
    return humeError(status, names[status] ?? 'Internal Server Error', 'The request failed', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { code: leakMarker, error: leakMarker, message: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
