// Fake of MiniMax T2A v2: POST /v1/t2a_v2 (stream: SSE events of hex audio; otherwise one JSON), POST /v1/get_voice,
// Bearer auth, and errors the way MiniMax gives them: HTTP 200 with a non-zero base_resp.status_code for bad
// voices, models and parameters; HTTP 401/402/429/5xx with `{error: {type, message}, base_resp}` from the gateway.

import { mp3ToneAudio, pcmToneAudio, alignedBodyLength, speechLikeByteCount } from '../testing/audio/tone-audio.js';
import {
  countCharacters,
  headerValue,
  isRecord,
  jsonError,
  jsonReply,
  markedHeaders,
  type FakeAudioReply,
  type FakeContext,
  type FakeErrorReply,
  type FakeJsonReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import { MINIMAX_CODES } from './minimax-api-types.js';

const MODELS = new Set(['speech-2.8-hd', 'speech-2.8-turbo', 'speech-2.6-hd', 'speech-2.6-turbo', 'speech-02-hd', 'speech-02-turbo', 'speech-01-hd', 'speech-01-turbo']);
const SAMPLE_RATES = new Set([8000, 16000, 22050, 24000, 32000, 44100]);
const MAX_TEXT = 9999;
const MP3_KBPS = 128;

export const MINIMAX_FAKE_SYSTEM_VOICES = [
  { voice_id: 'English_expressive_narrator', voice_name: 'Expressive Narrator', description: ['A clear male narrator'] },
  { voice_id: 'English_radiant_girl', voice_name: 'Radiant Girl', description: ['A bright young female voice'] },
  { voice_id: 'English_CalmWoman', voice_name: 'Calm Woman', description: ['A calm female voice'] },
  { voice_id: 'male-qn-qingse', voice_name: 'Qingse', description: ['青涩青年'] },
];
export const MINIMAX_FAKE_CLONED_VOICE = { voice_id: 'our-support-voice-01', description: [], created_time: '2026-05-01' };
const VOICE_IDS = new Set([...MINIMAX_FAKE_SYSTEM_VOICES.map((voice) => voice.voice_id), MINIMAX_FAKE_CLONED_VOICE.voice_id]);

const traceId = () => `0${Date.now().toString(16)}fake`;

/** MiniMax's usual failure: HTTP 200, JSON, a non-zero base_resp code. */
function baseRespError(code: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(200, { trace_id: traceId(), base_resp: { status_code: code, status_msg: `${message} [${context.leakMarker}]` } });
}

const GATEWAY: Record<number, [type: string, code: number]> = {
  400: ['bad_request_error', MINIMAX_CODES.INVALID_PARAMS],
  401: ['authentication_error', MINIMAX_CODES.AUTH_FAILED],
  402: ['insufficient_balance_error', MINIMAX_CODES.INSUFFICIENT_BALANCE],
  403: ['permission_error', MINIMAX_CODES.AUTH_FAILED],
  429: ['rate_limit_error', MINIMAX_CODES.RATE_LIMITED],
};

/** The gateway's answer for an HTTP error status. */
function gatewayError(status: number, message: string, context: FakeContext): FakeErrorReply {
  const [type, code] = GATEWAY[status] ?? ['api_error', MINIMAX_CODES.UNKNOWN];
  return jsonError(status, {
    type: 'error',
    error: { type, message: `${message} [${context.leakMarker}]`, http_code: String(status) },
    base_resp: { status_code: code, status_msg: `${message} [${context.leakMarker}]` },
  });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => baseRespError(MINIMAX_CODES.INVALID_PARAMS, `invalid params, ${message}`, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('body is not json');
  const body = request.body;
  if (typeof body.model !== 'string' || !MODELS.has(body.model)) return invalid('model');
  if (typeof body.text !== 'string' || body.text.trim() === '') return invalid('text is empty');
  if (countCharacters(body.text) > MAX_TEXT) return invalid('text too long');
  const voice = body.voice_setting;
  if (!isRecord(voice) || typeof voice.voice_id !== 'string') return invalid('voice_setting.voice_id');
  if (voice.speed !== undefined && (typeof voice.speed !== 'number' || voice.speed < 0.5 || voice.speed > 2)) return invalid('speed');
  if (voice.vol !== undefined && (typeof voice.vol !== 'number' || voice.vol <= 0 || voice.vol > 10)) return invalid('vol');
  if (voice.pitch !== undefined && (!Number.isInteger(voice.pitch) || (voice.pitch as number) < -12 || (voice.pitch as number) > 12)) return invalid('pitch');
  const audio = body.audio_setting;
  if (audio !== undefined) {
    if (!isRecord(audio)) return invalid('audio_setting');
    if (audio.sample_rate !== undefined && !SAMPLE_RATES.has(audio.sample_rate as number)) return invalid('sample_rate');
    if (audio.format !== undefined && !['mp3', 'pcm', 'flac', 'wav'].includes(audio.format as string)) return invalid('format');
    if (audio.channel !== undefined && audio.channel !== 1 && audio.channel !== 2) return invalid('channel');
  }
  if (!VOICE_IDS.has(voice.voice_id)) return baseRespError(MINIMAX_CODES.INVALID_VOICE_ID, 'voice id not exist', context);
  return undefined;
}

/** One SSE event per audio chunk, as the stream writes them. */
function sseEvent(audio: Buffer): string {
  return `data: ${JSON.stringify({ data: { audio: audio.toString('hex'), status: 1 }, trace_id: 'fake', base_resp: { status_code: 0, status_msg: '' } })}\n\n`;
}

function synthesize(request: FakeSpeechRequest, context: FakeContext): FakeAudioReply | FakeErrorReply | FakeJsonReply {
  if (request.method !== 'POST') return gatewayError(405, 'method not allowed', context);
  if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return gatewayError(401, 'invalid api key', context);
  const bodyError = validateBody(request, context);
  if (bodyError) return bodyError;
  const body = request.body as Record<string, unknown>;
  const setting = (body.audio_setting ?? {}) as Record<string, unknown>;
  const format = (setting.format as string | undefined) ?? 'mp3';
  const sampleRate = (setting.sample_rate as number | undefined) ?? 32_000;
  if ((setting.channel ?? 1) !== 1) return baseRespError(MINIMAX_CODES.INVALID_PARAMS, 'the fake only simulates mono', context);
  const characters = countCharacters(body.text as string);
  let reply: FakeAudioReply;
  if (format === 'mp3' && sampleRate === 24_000) {
    reply = { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'text/event-stream', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters };
  } else if (format === 'pcm') {
    reply = { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'text/event-stream', bytesPerSecond: sampleRate * 2, characters };
  } else {
    return baseRespError(MINIMAX_CODES.INVALID_PARAMS, 'the fake only simulates 24 kHz mp3 and pcm', context);
  }
  const length = Math.min(alignedBodyLength(reply.audio, speechLikeByteCount(characters, reply.bytesPerSecond)), reply.audio.buffer.length);
  const extraInfo = { audio_sample_rate: sampleRate, audio_format: format, usage_characters: characters, audio_channel: 1 };
  if (body.stream !== true) {
    return jsonReply({ data: { audio: reply.audio.buffer.subarray(0, length).toString('hex'), status: 2 }, extra_info: extraInfo, trace_id: traceId(), base_resp: { status_code: 0, status_msg: 'success' } });
  }
  // The final event repeats the aggregated audio unless the request excludes it (the double repeats what it can).
  const options = body.stream_options;
  const aggregated = isRecord(options) && options.exclude_aggregated_audio === true ? '' : reply.audio.buffer.subarray(0, length).toString('hex');
  const final = { data: { audio: aggregated, status: 2 }, extra_info: extraInfo, trace_id: 'fake', base_resp: { status_code: 0, status_msg: 'success' } };
  return { ...reply, frame: sseEvent, trailer: `data: ${JSON.stringify(final)}\n\n` };
}

function listVoices(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | FakeJsonReply {
  if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return gatewayError(401, 'invalid api key', context);
  const type = isRecord(request.body) ? request.body.voice_type : undefined;
  if (!['system', 'voice_cloning', 'voice_generation', 'all'].includes(type as string)) return baseRespError(MINIMAX_CODES.INVALID_PARAMS, 'invalid params, voice_type', context);
  const all = type === 'all';
  return jsonReply({
    system_voice: all || type === 'system' ? MINIMAX_FAKE_SYSTEM_VOICES : null,
    voice_cloning: all || type === 'voice_cloning' ? [MINIMAX_FAKE_CLONED_VOICE] : null,
    voice_generation: all || type === 'voice_generation' ? [] : null,
    base_resp: { status_code: 0, status_msg: 'success' },
  });
}

export const miniMaxFake: FakeProviderHandler = {
  kind: 'minimax',
  // Bare origin (https://api.minimax.io); paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname === '/v1/t2a_v2' || pathname === '/v1/get_voice',
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    if (request.pathname === '/v1/get_voice') return listVoices(request, context);
    return synthesize(request, context);
  },
  errorForStatus(status, _request, context) {
    return gatewayError(status, 'the request failed', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(
      status,
      { type: leakMarker, error: { type: leakMarker, message: leakMarker, http_code: leakMarker }, base_resp: { status_code: leakMarker, status_msg: leakMarker } },
      markedHeaders(leakMarker, 'trace-id'),
    );
  },
};
