// Fake of Murf's POST /v1/speech/stream and GET /v1/speech/voices: `api-key` auth, the stream body as the
// official SDK sends it, `{errorMessage, errorCode}` errors, and chunked raw audio (MP3, or headerless PCM).

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
  type FakeJsonReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import type { MurfApiVoice } from './murf-api-types.js';

const MODELS = new Set(['FALCON', 'GEN2']);
const FORMATS = new Set(['MP3', 'WAV', 'FLAC', 'ALAW', 'ULAW', 'PCM', 'OGG']);
const SAMPLE_RATES = new Set([8000, 16000, 24000, 44100, 48000]);
const MAX_TEXT = 5000;
const MP3_KBPS = 64;

function voice(voiceId: string, displayName: string, gender: string, locales: string[], styles: string[]): MurfApiVoice {
  const [locale] = locales;
  return {
    voiceId,
    displayName,
    locale,
    displayLanguage: locale,
    gender,
    description: `${displayName}, ${gender.toLowerCase()} voice`,
    availableStyles: styles,
    supportedLocales: Object.fromEntries(locales.map((code) => [code, { detail: code, availableStyles: styles }])),
  };
}

/** Voices by model, as GET /v1/speech/voices?model= lists them (GEN2 has one voice FALCON lacks). */
export const MURF_FAKE_VOICES: Record<string, MurfApiVoice[]> = {
  FALCON: [
    voice('en-US-natalie', 'Natalie', 'Female', ['en-US', 'es-ES'], ['Conversational', 'Promo']),
    voice('en-US-terrell', 'Terrell', 'Male', ['en-US'], ['Conversational']),
    voice('en-UK-ruby', 'Ruby', 'Female', ['en-UK'], ['Conversational', 'Narration']),
    voice('de-DE-matthias', 'Matthias', 'Male', ['de-DE'], ['Conversational']),
  ],
  GEN2: [
    voice('en-US-natalie', 'Natalie', 'Female', ['en-US', 'es-ES'], ['Conversational', 'Promo']),
    voice('en-US-terrell', 'Terrell', 'Male', ['en-US'], ['Conversational']),
    voice('en-UK-ruby', 'Ruby', 'Female', ['en-UK'], ['Conversational', 'Narration']),
    voice('de-DE-matthias', 'Matthias', 'Male', ['de-DE'], ['Conversational']),
    voice('en-US-river', 'River', 'NonBinary', ['en-US'], ['Narration']),
  ],
};

/** Murf takes a voice id or the voice actor's name (`natalie`). */
function knownVoice(model: string, id: string): boolean {
  return (MURF_FAKE_VOICES[model] ?? []).some((entry) => entry.voiceId === id || entry.voiceId!.split('-').at(-1) === id.toLowerCase());
}

function murfError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { errorMessage: `${message} [${context.leakMarker}]`, errorCode: status });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => murfError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('Invalid request body');
  const body = request.body;
  if (typeof body.text !== 'string' || body.text.trim() === '') return invalid('text is required');
  if (countCharacters(body.text) > MAX_TEXT) return invalid(`text exceeds ${MAX_TEXT} characters`);
  if (typeof body.voiceId !== 'string' || body.voiceId === '') return invalid('voiceId is required');
  if (body.model !== undefined && !MODELS.has(body.model as string)) return invalid('model must be FALCON or GEN2');
  if (body.format !== undefined && !FORMATS.has(body.format as string)) return invalid('Invalid format');
  if (body.sampleRate !== undefined && !SAMPLE_RATES.has(body.sampleRate as number)) return invalid('Invalid sampleRate');
  if (body.channelType !== undefined && body.channelType !== 'MONO' && body.channelType !== 'STEREO') return invalid('Invalid channelType');
  for (const name of ['rate', 'pitch'] as const) {
    const value = body[name];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) < -50 || (value as number) > 50)) return invalid(`${name} must be between -50 and 50`);
  }
  if (body.variation !== undefined && (!Number.isInteger(body.variation) || (body.variation as number) < 0 || (body.variation as number) > 5)) {
    return invalid('variation must be between 0 and 5');
  }
  if (!knownVoice((body.model as string | undefined) ?? 'FALCON', body.voiceId)) return invalid('Invalid voice_id');
  return undefined;
}

function listVoices(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | FakeJsonReply {
  if (request.method !== 'GET') return jsonError(405, { errorMessage: 'Method Not Allowed', errorCode: 405 });
  if (headerValue(request.headers, 'api-key') !== context.apiKey) return murfError(401, 'Invalid api key', context);
  const model = request.query.get('model') ?? 'FALCON';
  const voices = MURF_FAKE_VOICES[model];
  if (!voices) return murfError(400, 'Invalid model', context);
  return jsonReply(voices);
}

export const murfFake: FakeProviderHandler = {
  kind: 'murf',
  // The SDK's base URL is the bare origin; paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/v1/speech/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    if (request.pathname === '/v1/speech/voices') return listVoices(request, context);
    if (request.pathname !== '/v1/speech/stream') return jsonError(404, { errorMessage: 'Not Found', errorCode: 404 });
    if (request.method !== 'POST') return jsonError(405, { errorMessage: 'Method Not Allowed', errorCode: 405 });
    const key = headerValue(request.headers, 'api-key');
    if (key !== context.apiKey) return murfError(401, key ? 'Invalid api key' : 'api-key header is required', context);
    const bodyError = validateBody(request, context);
    if (bodyError) return bodyError;
    const body = request.body as Record<string, unknown>;
    const characters = countCharacters(body.text as string);
    const sampleRate = (body.sampleRate as number | undefined) ?? (body.model === 'GEN2' ? 44_100 : 24_000);
    if (body.channelType === 'STEREO') return murfError(400, 'The fake only simulates mono output', context);
    const format = (body.format as string | undefined) ?? 'MP3';
    if (format === 'MP3' && sampleRate === 24_000) {
      return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters };
    }
    if (format === 'PCM') return { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'audio/pcm', bytesPerSecond: sampleRate * 2, characters };
    return murfError(400, 'The fake only simulates 24 kHz MP3 and PCM output', context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = {
      400: 'Bad request',
      401: 'Invalid api key',
      402: 'Payment required: character limit exhausted',
      403: 'Forbidden',
      429: 'Too many requests',
      503: 'Service unavailable',
    };
    return murfError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { errorMessage: leakMarker, errorCode: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
