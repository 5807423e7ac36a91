// Fake of ElevenLabs' POST /v1/text-to-speech/{voice_id}[/stream]: xi-api-key auth, output_format in the query,
// `{"detail":{status,message}}` errors, FastAPI-style 422s, premade voices plus a clone; GET /v2/voices lists them.

import { randomUUID } from 'node:crypto';
import { mp3ToneAudio, pcmToneAudio, SAMPLE_RATE } from '../testing/audio/tone-audio.js';
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
import { ELEVENLABS_FAKE_VOICE_IDS, ELEVENLABS_PREVIEW_PATH, listElevenLabsVoices } from './elevenlabs-double-voices.js';

/** Voices every request may use: the premade ones (ids as published by ElevenLabs) and the account's clone. */
export const ELEVENLABS_FAKE_VOICES = new Set(ELEVENLABS_FAKE_VOICE_IDS);
const MODEL_LIMITS: Record<string, number> = {
  eleven_flash_v2_5: 40_000,
  eleven_turbo_v2_5: 40_000,
  eleven_flash_v2: 30_000,
  eleven_turbo_v2: 30_000,
  eleven_multilingual_v2: 10_000,
  eleven_v3: 5_000,
};
const OUTPUT_FORMAT = /^(mp3_(22050_32|24000_48|44100_(32|64|96|128|192))|pcm_(8000|16000|22050|24000|32000|44100|48000))$/;
const VOICE_SETTING_RANGES: Record<string, [number, number]> = {
  stability: [0, 1],
  similarity_boost: [0, 1],
  style: [0, 1],
  speed: [0.7, 1.2],
};

function detailError(status: number, slug: string, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { detail: { status: slug, message: `${message} [${context.leakMarker}]` } });
}

/** FastAPI's validation error shape, which ElevenLabs returns for malformed fields. */
function validationError(location: string[], message: string, input: unknown): FakeErrorReply {
  return jsonError(422, { detail: [{ type: 'value_error', loc: location, msg: message, input: input ?? null }] });
}

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const key = headerValue(request.headers, 'xi-api-key');
  if (key === context.apiKey) return undefined;
  if (key !== undefined) return detailError(401, 'invalid_api_key', 'Invalid API key', context);
  if (headerValue(request.headers, 'authorization') !== undefined) {
    return detailError(401, 'invalid_authorization_header', 'Send the API key in the xi-api-key header', context);
  }
  return detailError(401, 'needs_authorization', 'Neither an authorization header nor xi-api-key was received', context);
}

/** Splits `/v1/text-to-speech/{voice}[/stream]` on the raw path, decoding only the voice segment. */
function parseRoute(pathname: string): { voiceId: string } | undefined {
  const segments = pathname.split('/');
  // ['', 'v1', 'text-to-speech', voice] or [..., voice, 'stream']
  if (segments[1] !== 'v1' || segments[2] !== 'text-to-speech') return undefined;
  if (segments.length !== 4 && !(segments.length === 5 && segments[4] === 'stream')) return undefined;
  try {
    const voiceId = decodeURIComponent(segments[3]!);
    return voiceId ? { voiceId } : undefined;
  } catch {
    return undefined;
  }
}

function validateVoiceSettings(settings: unknown): FakeErrorReply | undefined {
  if (settings === undefined || settings === null) return undefined;
  if (!isRecord(settings)) return validationError(['body', 'voice_settings'], 'Input should be a valid dictionary', settings);
  for (const [name, [minimum, maximum]] of Object.entries(VOICE_SETTING_RANGES)) {
    const value = settings[name];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || value < minimum || value > maximum) {
      return validationError(['body', 'voice_settings', name], `Input should be between ${minimum} and ${maximum}`, value);
    }
  }
  const boost = settings.use_speaker_boost;
  if (boost !== undefined && boost !== null && typeof boost !== 'boolean') {
    return validationError(['body', 'voice_settings', 'use_speaker_boost'], 'Input should be a valid boolean', boost);
  }
  return undefined;
}

function validateBody(body: Record<string, unknown>, context: FakeContext): FakeErrorReply | undefined {
  if (typeof body.text !== 'string') return validationError(['body', 'text'], 'Field required', body.text);
  const modelId = body.model_id ?? 'eleven_multilingual_v2';
  const limit = typeof modelId === 'string' ? MODEL_LIMITS[modelId] : undefined;
  if (limit === undefined) return detailError(400, 'model_not_found', `Model ${String(modelId)} was not found`, context);
  const length = countCharacters(body.text);
  if (length > limit) {
    return detailError(400, 'max_character_limit_exceeded', `Text is ${length} characters; the limit is ${limit}`, context);
  }
  const seed = body.seed;
  if (seed !== undefined && seed !== null && (!Number.isInteger(seed) || (seed as number) < 0 || (seed as number) > 4_294_967_295)) {
    return validationError(['body', 'seed'], 'Input should be an integer between 0 and 4294967295', seed);
  }
  for (const field of ['language_code', 'previous_text', 'next_text']) {
    const value = body[field];
    if (value !== undefined && value !== null && typeof value !== 'string') {
      return validationError(['body', field], 'Input should be a valid string', value);
    }
  }
  return validateVoiceSettings(body.voice_settings);
}

export const elevenLabsFake: FakeProviderHandler = {
  kind: 'elevenlabs',
  // The official SDKs' base URL is the bare host; paths carry /v1 themselves.
  basePath: '',
  ownsPath: (pathname) =>
    pathname.startsWith('/v1/text-to-speech') || pathname === '/v2/voices' || pathname.startsWith(ELEVENLABS_PREVIEW_PATH),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(128, 44_100); // mp3_44100_128, ElevenLabs' default and the router's
  },
  handle(request, context) {
    if (request.pathname.startsWith(ELEVENLABS_PREVIEW_PATH)) {
      // Previews are public files: no key needed, like the real bucket.
      return { type: 'audio', audio: mp3ToneAudio(48), contentType: 'audio/mpeg', bytesPerSecond: 6000, characters: 30 };
    }
    if (request.pathname === '/v2/voices') {
      if (request.method !== 'GET') return jsonError(405, { detail: 'Method Not Allowed' });
      return authenticate(request, context) ?? listElevenLabsVoices(request);
    }
    const route = parseRoute(request.pathname);
    if (!route) return jsonError(404, { detail: 'Not Found' });
    if (request.method !== 'POST') return jsonError(405, { detail: 'Method Not Allowed' });
    const authError = authenticate(request, context);
    if (authError) return authError;
    const outputFormat = request.query.get('output_format') ?? 'mp3_44100_128';
    if (!OUTPUT_FORMAT.test(outputFormat)) {
      return validationError(['query', 'output_format'], 'Input should be a supported output format', outputFormat);
    }
    if (!request.bodyIsJson || !isRecord(request.body)) {
      return validationError(['body'], 'JSON decode error', null);
    }
    const bodyError = validateBody(request.body, context);
    if (bodyError) return bodyError;
    if (!ELEVENLABS_FAKE_VOICES.has(route.voiceId)) {
      return detailError(404, 'voice_not_found', `A voice with the voice_id ${route.voiceId} was not found.`, context);
    }
    const characters = countCharacters(request.body.text as string);
    const headers = { 'request-id': randomUUID(), 'character-cost': String(characters) };
    if (outputFormat.startsWith('pcm_')) {
      // Every pcm_* rate is served as the 24 kHz tone: the fake only carries 24 kHz audio.
      // Content type for PCM is not documented; application/octet-stream is assumed.
      return { type: 'audio', audio: pcmToneAudio(), contentType: 'application/octet-stream', bytesPerSecond: SAMPLE_RATE * 2, characters, headers };
    }
    // mp3_<sample rate>_<kbps>: served at exactly that sample rate and bit rate.
    const [, sampleRate, kbps] = outputFormat.split('_').map(Number) as [number, number, number];
    const audio = mp3ToneAudio(kbps, sampleRate);
    return { type: 'audio', audio, contentType: 'audio/mpeg', bytesPerSecond: (kbps * 1000) / 8, characters, headers };
  },
  errorForStatus(status, _request, context) {
    const slugs: Record<number, [string, string]> = {
      400: ['invalid_request', 'The request was invalid'],
      401: ['invalid_api_key', 'Invalid API key'],
      403: ['forbidden', 'This API key lacks the required permission'],
      404: ['voice_not_found', 'A voice with the requested voice_id was not found.'],
      429: ['too_many_concurrent_requests', 'Too many concurrent requests for your subscription'],
      500: ['internal_server_error', 'An internal error occurred'],
      503: ['system_busy', 'The system is experiencing heavy traffic, please try again'],
    };
    const [slug, message] = slugs[status] ?? [status >= 500 ? 'internal_server_error' : 'invalid_request', 'The request failed'];
    return detailError(status, slug, message, context);
  },
  markedError(status, { leakMarker }) {
    const detail = { status: leakMarker, code: leakMarker, type: leakMarker, message: leakMarker, request_id: leakMarker };
    return jsonError(status, { detail }, { ...markedHeaders(leakMarker, 'request-id'), 'x-trace-id': leakMarker, 'x-region': leakMarker });
  },
};
