// Fake of Smallest.ai Waves: POST /waves/v1/tts (Bearer auth, TtsRequest validation, binary audio in the body's
// output_format: pcm by default, mp3, or wav) and GET /waves/v1/{model}/get_voices (`{voices: [{voiceId,
// displayName, tags}]}`), with `{message}` errors (shape unconfirmed upstream).

import { mp3ToneAudio, pcmToneAudio, wavToneAudio } from '../testing/audio/tone-audio.js';
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
import type { SmallestVoice } from './smallest-api-types.js';

const MODELS = new Set(['lightning_v3.1', 'lightning_v3.1_pro']);
const FORMATS = new Set(['pcm', 'mp3', 'wav', 'ulaw', 'alaw']);
const MP3_KBPS = 64;

function voice(voiceId: string, displayName: string, language: string[], gender: string, accent: string): SmallestVoice {
  return { voiceId, displayName, tags: { language, accent, gender, age: 'adult', emotions: ['neutral'], usecases: ['narration'] } };
}

/** Both pools in one list, as the API returns them (no Pro flag). */
export const SMALLEST_FAKE_VOICES: SmallestVoice[] = [
  voice('magnus', 'Magnus', ['english'], 'male', 'american'),
  voice('olivia', 'Olivia', ['english'], 'female', 'british'),
  voice('arnav', 'Arnav', ['hindi', 'english'], 'male', 'indian'),
  voice('meher', 'Meher', ['hindi', 'english'], 'female', 'indian'),
  voice('voice_a1b2c3d4', 'Our Clone', [], '', ''),
];
const VOICE_IDS = new Set(SMALLEST_FAKE_VOICES.map((entry) => entry.voiceId));

function smallestError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { message: `${message} [${context.leakMarker}]` });
}

function validateBody(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const invalid = (message: string) => smallestError(400, message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return invalid('The request body must be a JSON object');
  const body = request.body;
  if (typeof body.text !== 'string' || body.text.trim().length === 0) return invalid('text is required');
  if (typeof body.voice_id !== 'string' || body.voice_id.length === 0) return invalid('voice_id is required');
  if (body.model !== undefined && !MODELS.has(body.model as string)) return invalid('model is not supported');
  if (body.output_format !== undefined && !FORMATS.has(body.output_format as string)) return invalid('output_format is not supported');
  const rate = body.sample_rate;
  if (rate !== undefined && (typeof rate !== 'number' || !Number.isInteger(rate) || rate < 8000 || rate > 44100)) return invalid('sample_rate must be 8000 to 44100');
  const speed = body.speed;
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.5 || speed > 2)) return invalid('speed must be between 0.5 and 2');
  if (body.language !== undefined && (typeof body.language !== 'string' || !/^([a-z]{2}|auto)$/.test(body.language))) return invalid('language is not supported');
  // A voice from the other pool is accepted (Smallest answers wrong audio); a voice nobody has is refused.
  if (!VOICE_IDS.has(body.voice_id)) return invalid(`voice_id ${body.voice_id} does not exist`);
  return undefined;
}

function synthesize(request: FakeSpeechRequest, context: FakeContext) {
  const bodyError = validateBody(request, context);
  if (bodyError) return bodyError;
  const body = request.body as { text: string; output_format?: string; sample_rate?: number };
  const characters = countCharacters(body.text);
  const sampleRate = body.sample_rate ?? 44_100;
  const format = body.output_format ?? 'pcm';
  if (format === 'pcm') return { type: 'audio' as const, audio: pcmToneAudio(sampleRate), contentType: 'audio/pcm', bytesPerSecond: sampleRate * 2, characters };
  if (format === 'wav') return { type: 'audio' as const, audio: wavToneAudio(sampleRate), contentType: 'audio/wav', bytesPerSecond: sampleRate * 2, characters };
  if (format === 'mp3') {
    if (![16_000, 22_050, 24_000, 32_000, 44_100].includes(sampleRate)) return smallestError(400, 'The fake encodes mp3 at 16 to 44.1 kHz only', context);
    return { type: 'audio' as const, audio: mp3ToneAudio(MP3_KBPS, sampleRate), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters };
  }
  return smallestError(400, 'The fake only simulates pcm, wav and mp3', context);
}

export const smallestFake: FakeProviderHandler = {
  kind: 'smallest',
  // The SDK's base URL is the bare origin; paths carry /waves/v1.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/waves/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(MP3_KBPS);
  },
  handle(request, context) {
    const voices = /^\/waves\/v1\/([^/]+)\/get_voices$/.exec(request.pathname);
    if (request.pathname !== '/waves/v1/tts' && !voices) return jsonError(404, { message: 'Not Found' });
    if (request.method !== (voices ? 'GET' : 'POST')) return jsonError(405, { message: 'Method Not Allowed' });
    if (headerValue(request.headers, 'authorization') !== `Bearer ${context.apiKey}`) return smallestError(401, 'Invalid API key', context);
    if (voices) {
      if (voices[1] !== 'lightning-v3.1') return smallestError(400, 'model is not supported', context);
      return jsonReply({ voices: SMALLEST_FAKE_VOICES });
    }
    return synthesize(request, context);
  },
  errorForStatus(status, _request, context) {
    const messages: Record<number, string> = { 400: 'Bad request', 401: 'Invalid API key', 402: 'Insufficient credits', 403: 'Forbidden', 429: 'Rate limit exceeded' };
    return smallestError(status, messages[status] ?? 'Internal server error', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { message: leakMarker, error: leakMarker }, markedHeaders(leakMarker, 'x-request-id'));
  },
};
