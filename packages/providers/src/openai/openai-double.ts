// Fake of OpenAI's POST /v1/audio/speech: Bearer auth, body validation and error bodies as the real API sends them.

import { randomBytes } from 'node:crypto';
import { mp3ToneAudio, pcmToneAudio, SAMPLE_RATE } from '../testing/audio/tone-audio.js';
import {
  countCharacters,
  headerValue,
  isRecord,
  jsonError,
  markedHeaders,
  maskKey,
  type FakeContext,
  type FakeErrorReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';

const MODELS = new Set([
  'tts-1',
  'tts-1-1106',
  'tts-1-hd',
  'tts-1-hd-1106',
  'gpt-4o-mini-tts',
  'gpt-4o-mini-tts-2025-03-20',
  'gpt-4o-mini-tts-2025-12-15',
]);
const VOICES = new Set([
  'alloy', 'ash', 'ballad', 'coral', 'echo', 'fable', 'onyx', 'nova', 'sage', 'shimmer', 'verse', 'marin', 'cedar',
]);
const RESPONSE_FORMATS = new Set(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']);
const MAX_INPUT = 4096;
/** OpenAI does not document its MP3 bit rate; 64 kbps keeps bodies realistic in size. */
const MP3_KBPS = 64;

type OpenAIErrorType = 'invalid_request_error' | 'requests' | 'server_error' | 'insufficient_quota';

function openAIError(
  status: number,
  message: string,
  type: OpenAIErrorType,
  code: string | null,
  param: string | null,
  context: FakeContext,
): FakeErrorReply {
  return jsonError(
    status,
    { error: { message: `${message} [${context.leakMarker}]`, type, param, code } },
    { 'x-request-id': `req_${randomBytes(16).toString('hex')}` },
  );
}

function invalidRequest(message: string, param: string | null, code: string | null, context: FakeContext): FakeErrorReply {
  return openAIError(400, message, 'invalid_request_error', code, param, context);
}

function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) {
    return openAIError(
      401,
      "You didn't provide an API key. Send it in an Authorization header using Bearer auth.",
      'invalid_request_error',
      null,
      null,
      context,
    );
  }
  if (authorization === `Bearer ${context.apiKey}`) return undefined;
  const presented = authorization.startsWith('Bearer ') ? authorization.slice(7) : authorization;
  return openAIError(
    401,
    `Incorrect API key provided: ${maskKey(presented)}. You can find your API key in your account settings.`,
    'invalid_request_error',
    'invalid_api_key',
    null,
    context,
  );
}

function validate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | { format: 'mp3' | 'pcm'; input: string } {
  if (!request.bodyIsJson || !isRecord(request.body)) {
    return invalidRequest('We could not parse the JSON body of your request.', null, null, context);
  }
  const body = request.body;
  for (const field of ['model', 'input', 'voice']) {
    if (body[field] === undefined) return invalidRequest(`'${field}' is a required property`, field, null, context);
  }
  if (typeof body.model !== 'string' || !MODELS.has(body.model)) {
    return openAIError(404, `The model '${String(body.model)}' does not exist`, 'invalid_request_error', 'model_not_found', null, context);
  }
  if (typeof body.input !== 'string') return invalidRequest("'input' must be a string", 'input', null, context);
  if (countCharacters(body.input) > MAX_INPUT) {
    return invalidRequest(`'input' is too long: at most ${MAX_INPUT} characters`, 'input', 'string_above_max_length', context);
  }
  const voice = body.voice;
  const voiceIsCustom = isRecord(voice) && typeof voice.id === 'string';
  if (!voiceIsCustom && (typeof voice !== 'string' || !VOICES.has(voice))) {
    return invalidRequest(`Invalid value for 'voice'`, 'voice', 'invalid_value', context);
  }
  const format = body.response_format ?? 'mp3';
  if (typeof format !== 'string' || !RESPONSE_FORMATS.has(format)) {
    return invalidRequest(`Invalid value for 'response_format'`, 'response_format', 'invalid_value', context);
  }
  if (format !== 'mp3' && format !== 'pcm') {
    // Valid upstream, but this fake only carries MP3 and PCM audio: say so rather than send wrong bytes.
    return invalidRequest(`The fake does not simulate response_format '${format}'`, 'response_format', 'unsupported_value', context);
  }
  if (body.speed !== undefined && (typeof body.speed !== 'number' || body.speed < 0.25 || body.speed > 4)) {
    return invalidRequest("'speed' must be a number between 0.25 and 4.0", 'speed', 'invalid_value', context);
  }
  if (body.instructions !== undefined && (typeof body.instructions !== 'string' || countCharacters(body.instructions) > MAX_INPUT)) {
    return invalidRequest("'instructions' must be a string of at most 4096 characters", 'instructions', 'invalid_value', context);
  }
  if (body.stream_format !== undefined && body.stream_format !== 'audio') {
    return invalidRequest(`The fake does not simulate stream_format '${String(body.stream_format)}'`, 'stream_format', 'unsupported_value', context);
  }
  return { format, input: body.input };
}

export const openAIFake: FakeProviderHandler = {
  kind: 'openai',
  // The official SDK's base URL (and OPENAI_BASE_URL) ends in /v1; requests go to <base>/audio/speech.
  basePath: '/v1',
  ownsPath: (pathname) => pathname.startsWith('/v1/audio/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    if (request.pathname !== '/v1/audio/speech') {
      return openAIError(404, `Invalid URL (${request.method} ${request.pathname})`, 'invalid_request_error', null, null, context);
    }
    if (request.method !== 'POST') {
      return openAIError(405, `Invalid method for URL (${request.method} ${request.pathname})`, 'invalid_request_error', null, null, context);
    }
    const authError = authenticate(request, context);
    if (authError) return authError;
    const valid = validate(request, context);
    if ('type' in valid) return valid;
    const requestId = { 'x-request-id': `req_${randomBytes(16).toString('hex')}` };
    if (valid.format === 'pcm') {
      // Raw s16le mono at 24 kHz; OpenAI does not document the content type for pcm, audio/pcm is assumed.
      return { type: 'audio', audio: pcmToneAudio(), contentType: 'audio/pcm', bytesPerSecond: SAMPLE_RATE * 2, characters: countCharacters(valid.input), headers: requestId };
    }
    return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters: countCharacters(valid.input), headers: requestId };
  },
  errorForStatus(status, _request, context) {
    if (status === 401) {
      return openAIError(401, 'Incorrect API key provided: sk-****. You can find your API key in your account settings.', 'invalid_request_error', 'invalid_api_key', null, context);
    }
    if (status === 429) {
      return openAIError(429, 'Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded', null, context);
    }
    if (status === 503) {
      return openAIError(503, 'The engine is currently overloaded, please try again later.', 'server_error', null, null, context);
    }
    if (status >= 500) {
      return openAIError(status, 'The server had an error while processing your request. Sorry about that!', 'server_error', null, null, context);
    }
    return openAIError(status, 'Your request was rejected.', 'invalid_request_error', null, null, context);
  },
  markedError(status, { leakMarker }) {
    const body = { error: { message: leakMarker, type: leakMarker, param: leakMarker, code: leakMarker } };
    return jsonError(status, body, { ...markedHeaders(leakMarker, 'x-request-id'), 'openai-organization': leakMarker });
  },
};
