// Fake of Inworld TTS: POST /tts/v1/voice:stream (NDJSON lines of base64 audio in result.audioContent),
// POST /tts/v1/voice (one JSON with audioContent) and GET /voices/v1/voices, with `Authorization: Basic <key>`
// auth and Google-style `{code, message, details}` errors (gRPC status numbers).

import { mp3ToneAudio, pcmToneAudio, wavToneAudio, alignedBodyLength, speechLikeByteCount } from '../testing/audio/tone-audio.js';
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
import type { InworldVoiceInfo } from './inworld-api-types.js';

const MODELS = new Set(['inworld-tts-1', 'inworld-tts-1-max', 'inworld-tts-1.5-mini', 'inworld-tts-1.5-max', 'inworld-tts-2']);
const ENCODINGS = new Set(['MP3', 'OGG_OPUS', 'LINEAR16', 'WAV', 'PCM', 'FLAC', 'ALAW', 'MULAW']);
const MAX_TEXT = 2000;
const MP3_KBPS = 128;

function voice(voiceId: string, gender: string, langCode = 'EN_US'): InworldVoiceInfo {
  return { voiceId, displayName: voiceId, langCode, description: `A ${gender} voice`, tags: [gender, 'conversational'], source: 'SYSTEM' };
}

/** Voices of the double's workspace: built-in voices plus one cloned voice (ids carry the workspace). */
export const INWORLD_FAKE_VOICES: InworldVoiceInfo[] = [
  voice('Ashley', 'female'),
  voice('Dennis', 'male'),
  voice('Alex', 'male'),
  voice('Olivia', 'female'),
  voice('Timothy', 'male'),
  voice('Diego', 'male', 'ES_ES'),
  { voiceId: 'default-workspace__our_narrator', displayName: 'Our Narrator', langCode: 'EN_US', tags: [], source: 'IVC' },
];
const VOICE_IDS = new Set(INWORLD_FAKE_VOICES.map((entry) => entry.voiceId));

const GRPC_FOR_STATUS: Record<number, [number, string]> = {
  400: [3, 'INVALID_ARGUMENT'],
  401: [16, 'UNAUTHENTICATED'],
  402: [9, 'FAILED_PRECONDITION'],
  403: [7, 'PERMISSION_DENIED'],
  404: [5, 'NOT_FOUND'],
  429: [8, 'RESOURCE_EXHAUSTED'],
  503: [14, 'UNAVAILABLE'],
};

function inworldError(status: number, message: string, context: FakeContext): FakeErrorReply {
  const [code] = GRPC_FOR_STATUS[status] ?? [13, 'INTERNAL'];
  return jsonError(status, { code, message: `${message} [${context.leakMarker}]`, details: [] });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => inworldError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('Invalid JSON payload received.');
  const body = request.body;
  if (typeof body.text !== 'string' || body.text.length === 0) return invalid('text is required');
  if (countCharacters(body.text) > MAX_TEXT) return invalid(`text must be at most ${MAX_TEXT} characters`);
  if (typeof body.voiceId !== 'string' || body.voiceId === '') return invalid('voiceId is required');
  if (typeof body.modelId !== 'string' || !MODELS.has(body.modelId)) return invalid('Unknown modelId');
  const config = body.audioConfig;
  if (config !== undefined) {
    if (!isRecord(config)) return invalid('audioConfig must be an object');
    if (config.audioEncoding !== undefined && !ENCODINGS.has(config.audioEncoding as string)) return invalid('Invalid audioEncoding');
    const rate = config.sampleRateHertz;
    if (rate !== undefined && (!Number.isInteger(rate) || (rate as number) < 8000 || (rate as number) > 48_000)) return invalid('Invalid sampleRateHertz');
    const speed = config.speakingRate;
    if (speed !== undefined && (typeof speed !== 'number' || speed < 0.5 || speed > 1.5)) return invalid('speakingRate must be between 0.5 and 1.5');
  }
  const temperature = body.temperature;
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 2)) return invalid('temperature must be between 0 and 2');
  if (body.deliveryMode !== undefined && !['STABLE', 'BALANCED', 'CREATIVE'].includes(body.deliveryMode as string)) return invalid('Invalid deliveryMode');
  if (!VOICE_IDS.has(body.voiceId)) return inworldError(404, `Unknown voice: ${body.voiceId} not found!`, context);
  return undefined;
}

interface PlannedAudio {
  reply: Omit<FakeAudioReply, 'frame'>;
}

/** The audio for the asked encoding, or an error for encodings the double does not simulate. */
function planAudio(body: Record<string, unknown>, context: FakeContext): PlannedAudio | FakeErrorReply {
  const config = (body.audioConfig ?? {}) as Record<string, unknown>;
  const encoding = (config.audioEncoding as string | undefined) ?? 'MP3';
  const sampleRate = (config.sampleRateHertz as number | undefined) ?? 48_000;
  const characters = countCharacters(body.text as string);
  if (encoding === 'MP3' && sampleRate === 24_000) {
    return { reply: { type: 'audio', audio: mp3ToneAudio(MP3_KBPS), contentType: 'application/json', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters } };
  }
  if (encoding === 'PCM') return { reply: { type: 'audio', audio: pcmToneAudio(sampleRate), contentType: 'application/json', bytesPerSecond: sampleRate * 2, characters } };
  if (encoding === 'LINEAR16') return { reply: { type: 'audio', audio: wavToneAudio(sampleRate), contentType: 'application/json', bytesPerSecond: sampleRate * 2, characters } };
  return inworldError(400, 'The fake only simulates 24 kHz MP3, PCM and LINEAR16 output', context);
}

/** One NDJSON line per audio chunk, as the stream writes them. */
function ndjsonLine(audio: Buffer): string {
  return `${JSON.stringify({ result: { audioContent: audio.toString('base64') } })}\n`;
}

function synthesize(request: FakeSpeechRequest, context: FakeContext, streaming: boolean): FakeAudioReply | FakeErrorReply | FakeJsonReply {
  if (request.method !== 'POST') return inworldError(404, 'Method not found', context);
  const authorization = headerValue(request.headers, 'authorization');
  if (authorization !== `Basic ${context.apiKey}`) return inworldError(401, 'Request had invalid authentication credentials.', context);
  const bodyError = validateBody(request, context);
  if (bodyError) return bodyError;
  const body = request.body as Record<string, unknown>;
  const planned = planAudio(body, context);
  if (!('reply' in planned)) return planned;
  const usage = { processedCharactersCount: planned.reply.characters, modelId: body.modelId };
  if (streaming) return { ...planned.reply, frame: ndjsonLine, trailer: `${JSON.stringify({ result: { usage } })}\n` };
  // The JSON endpoint answers the whole audio at once.
  const { audio } = planned.reply;
  const length = alignedBodyLength(audio, speechLikeByteCount(planned.reply.characters, planned.reply.bytesPerSecond));
  const bytes = Buffer.concat([audio.header ?? Buffer.alloc(0), audio.buffer.subarray(0, Math.min(length, audio.buffer.length))]);
  return jsonReply({ audioContent: bytes.toString('base64'), usage });
}

function listVoices(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | FakeJsonReply {
  if (request.method !== 'GET') return inworldError(404, 'Method not found', context);
  if (headerValue(request.headers, 'authorization') !== `Basic ${context.apiKey}`) return inworldError(401, 'Request had invalid authentication credentials.', context);
  const languages = request.query.getAll('languages').map((code) => code.toUpperCase());
  const voices = languages.length === 0 ? INWORLD_FAKE_VOICES : INWORLD_FAKE_VOICES.filter((entry) => languages.some((code) => entry.langCode!.startsWith(code)));
  return jsonReply({ voices });
}

export const inworldFake: FakeProviderHandler = {
  kind: 'inworld',
  // The SDK's base URL is the bare origin (INWORLD_BASE_URL); paths carry /tts/v1 and /voices/v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/tts/v1/') || pathname.startsWith('/voices/v1/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    if (request.pathname === '/tts/v1/voice:stream') return synthesize(request, context, true);
    if (request.pathname === '/tts/v1/voice') return synthesize(request, context, false);
    if (request.pathname === '/voices/v1/voices') return listVoices(request, context);
    return inworldError(404, 'Not Found', context);
  },
  errorForStatus(status, _request, context) {
    const [, name] = GRPC_FOR_STATUS[status] ?? [13, 'INTERNAL'];
    return inworldError(status, `The request failed: ${name}`, context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { code: leakMarker, message: leakMarker, details: [{ '@type': leakMarker, reason: leakMarker }] }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
