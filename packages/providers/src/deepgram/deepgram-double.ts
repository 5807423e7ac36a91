// Fake of Deepgram Aura's POST /v1/speak: `Authorization: Token <key>`, every option in the query string,
// `{text}` body, Deepgram's `{err_code, err_msg, request_id}` errors, and chunked raw audio (mp3 at 22.05 kHz,
// linear16 at the asked rate).

import { randomUUID } from 'node:crypto';
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
import { AURA_1_VOICES, AURA_2_VOICES, DEEPGRAM_MAX_INPUT_CHARACTERS } from './deepgram-catalog.js';

/** Every upstream model the double serves: `aura-2-<name>-<lang>` and `aura-<name>-en`. */
export const DEEPGRAM_FAKE_MODELS = new Set([
  ...Object.entries(AURA_2_VOICES).flatMap(([language, names]) => names.map((name) => `aura-2-${name}-${language}`)),
  ...AURA_1_VOICES.map((name) => `aura-${name}-en`),
]);
/** Genders the double's model list tags (as `feminine`/`masculine`, Deepgram's metadata vocabulary) for a few voices. */
const FAKE_GENDERS: Record<string, string> = { thalia: 'feminine', andromeda: 'feminine', asteria: 'feminine', luna: 'feminine', zeus: 'masculine', apollo: 'masculine', orion: 'masculine', javier: 'masculine' };

/** GET /v1/models: `{stt, tts}`, one tts entry per upstream model (voice), unpaged. */
function listModels(): unknown {
  const tts = [...DEEPGRAM_FAKE_MODELS].map((canonical) => {
    const architecture = canonical.startsWith('aura-2-') ? 'aura-2' : 'aura';
    const [name, language] = canonical.slice(architecture.length + 1).split('-') as [string, string];
    const gender = FAKE_GENDERS[name];
    return {
      name,
      canonical_name: canonical,
      architecture,
      languages: [language, `${language}-${language === 'en' ? 'US' : language.toUpperCase()}`],
      version: architecture === 'aura-2' ? '2025-04-07.0' : '2024-02-20.0',
      uuid: randomUUID(),
      metadata: {
        accent: 'American',
        age: 'Adult',
        color: '#C89FFF',
        image: `https://static.deepgram.com/examples/avatars/${name}.jpg`,
        sample: `https://static.deepgram.com/examples/voices/${canonical}.wav`,
        tags: gender ? [gender, 'engaging'] : ['engaging'],
        use_cases: ['IVR', 'Customer service'],
      },
    };
  });
  return { stt: [], tts };
}

const ENCODINGS = new Set(['linear16', 'mulaw', 'alaw', 'mp3', 'opus', 'flac', 'aac']);
const LINEAR16_RATES = new Set([8000, 16000, 24000, 32000, 48000]);
const MP3_BIT_RATES = new Set([32000, 48000]);
const MP3_SAMPLE_RATE = 22_050;

const CODE_FOR_STATUS: Record<number, string> = {
  400: 'Bad Request',
  401: 'INVALID_AUTH',
  402: 'ASR_PAYMENT_REQUIRED',
  403: 'INSUFFICIENT_PERMISSIONS',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
};

function deepgramError(status: number, message: string, context: FakeContext): FakeErrorReply {
  const requestId = randomUUID();
  return jsonError(
    status,
    { err_code: CODE_FOR_STATUS[status] ?? 'INTERNAL_SERVER_ERROR', err_msg: `${message} [${context.leakMarker}]`, request_id: requestId },
    { 'dg-request-id': requestId },
  );
}

function numberParam(query: URLSearchParams, name: string): number | undefined | 'invalid' {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const value = Number(raw);
  return raw.trim() === '' || !Number.isFinite(value) ? 'invalid' : value;
}

interface SpeakPlan {
  encoding: string;
  sampleRate: number;
  bitRate: number;
  characters: number;
}

function validate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | SpeakPlan {
  const invalid = (message: string) => deepgramError(400, message, context);
  const { query } = request;
  const model = query.get('model') ?? 'aura-asteria-en';
  if (!DEEPGRAM_FAKE_MODELS.has(model)) return invalid('No such model/version/tier combination found.');
  const encoding = query.get('encoding') ?? 'mp3';
  if (!ENCODINGS.has(encoding)) return invalid('Unsupported audio format: encoding is not supported.');
  const container = query.get('container');
  const sampleRate = numberParam(query, 'sample_rate');
  const bitRate = numberParam(query, 'bit_rate');
  const speed = numberParam(query, 'speed');
  if (sampleRate === 'invalid' || bitRate === 'invalid' || speed === 'invalid') return invalid('Failed to parse query parameters.');
  if (encoding === 'mp3') {
    if (container !== null && container !== 'none') return invalid('Unsupported audio format: mp3 takes no container.');
    if (sampleRate !== undefined) return invalid('Unsupported audio format: the mp3 sample rate is not configurable.');
    if (bitRate !== undefined && !MP3_BIT_RATES.has(bitRate)) return invalid('Unsupported audio format: mp3 bit_rate must be 32000 or 48000.');
  } else if (encoding === 'linear16') {
    if (container !== null && container !== 'none' && container !== 'wav') return invalid('Unsupported audio format: container.');
    if (sampleRate !== undefined && !LINEAR16_RATES.has(sampleRate)) return invalid('Unsupported audio format: sample_rate.');
    if (bitRate !== undefined) return invalid('Unsupported audio format: linear16 takes no bit_rate.');
  }
  if (speed !== undefined && (speed < 0.7 || speed > 1.5)) return invalid('speed must be between 0.7 and 1.5.');
  const contentType = headerValue(request.headers, 'content-type') ?? '';
  if (!contentType.toLowerCase().startsWith('application/json')) return deepgramError(415, 'Unsupported content type.', context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('Failed to parse the request body as JSON.');
  const text = request.body.text;
  if (typeof text !== 'string' || text.trim().length === 0) return invalid('Input text contained no characters.');
  const characters = countCharacters(text);
  if (characters > DEEPGRAM_MAX_INPUT_CHARACTERS) {
    return deepgramError(413, `Input text exceeded the ${DEEPGRAM_MAX_INPUT_CHARACTERS} character limit.`, context);
  }
  return { encoding, sampleRate: sampleRate ?? (encoding === 'mp3' ? MP3_SAMPLE_RATE : 24_000), bitRate: bitRate ?? 48_000, characters };
}

export const deepgramFake: FakeProviderHandler = {
  kind: 'deepgram',
  // The SDK's base URL is the bare origin; paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname === '/v1/speak' || pathname === '/v1/models',
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(48, MP3_SAMPLE_RATE);
  },
  handle(request, context) {
    const authorization = headerValue(request.headers, 'authorization') ?? '';
    if (authorization !== `Token ${context.apiKey}`) return deepgramError(401, 'Invalid credentials.', context);
    if (request.pathname === '/v1/models') {
      return request.method === 'GET' ? jsonReply(listModels(), { 'dg-request-id': randomUUID() }) : deepgramError(405, 'Method not allowed.', context);
    }
    if (request.method !== 'POST') return deepgramError(405, 'Method not allowed.', context);
    const plan = validate(request, context);
    if ('type' in plan) return plan;
    const headers = { 'dg-request-id': randomUUID() };
    if (plan.encoding === 'mp3') {
      const kbps = plan.bitRate / 1000;
      return { type: 'audio', audio: mp3ToneAudio(kbps, MP3_SAMPLE_RATE), contentType: 'audio/mpeg', bytesPerSecond: plan.bitRate / 8, characters: plan.characters, headers };
    }
    if (plan.encoding === 'linear16' && (request.query.get('container') ?? 'wav') === 'none') {
      return { type: 'audio', audio: pcmToneAudio(plan.sampleRate), contentType: 'application/octet-stream', bytesPerSecond: plan.sampleRate * 2, characters: plan.characters, headers };
    }
    return deepgramError(400, 'The fake only simulates mp3 and linear16 without a container.', context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = {
      400: 'Bad Request',
      401: 'Invalid credentials.',
      402: 'Project does not have enough credits for this request.',
      403: 'Insufficient permissions.',
      429: 'Too many requests. Please try again later.',
    };
    return deepgramError(status, messages[status] ?? 'Internal server error.', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { err_code: leakMarker, err_msg: leakMarker, request_id: leakMarker }, markedHeaders(leakMarker, 'dg-request-id'));
  },
};
