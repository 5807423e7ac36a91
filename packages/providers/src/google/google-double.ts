// Fake of Google Cloud Text-to-Speech v1 REST: POST /v1/text:synthesize (validated like the service, answered
// with one JSON object carrying base64 audio, pretty-printed unless `$prettyPrint=0`), GET /v1/voices (enum
// numbers with `$alt=json;enum-encoding=int`, as the client libraries ask), API keys (x-goog-api-key or
// ?key=) and OAuth tokens from its own token endpoint (POST /token, a JWT bearer grant signed by the test
// service account). Errors are google.rpc.Status bodies. Only MP3 and LINEAR16 at 24 kHz are simulated.

import { countCharacters, headerValue, isRecord, jsonError, jsonReply, markedHeaders, type FakeContext, type FakeErrorReply, type FakeProviderHandler, type FakeSpeechRequest } from '../testing/server/fake-handler.js';
import { GOOGLE_AUDIO_ENCODINGS, GOOGLE_SSML_GENDERS, type GoogleVoice } from './google-api-types.js';
import { base64BytesPerSecond, googleJsonAudio, type GoogleFakeEncoding } from './google-double-audio.js';
import { grantToken, isIssuedToken } from './google-double-auth.js';

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED', 499: 'CANCELLED', 500: 'INTERNAL', 501: 'NOT_IMPLEMENTED', 503: 'UNAVAILABLE', 504: 'DEADLINE_EXCEEDED',
};
const MAX_INPUT_BYTES = 5000;

function voice(name: string, gender: keyof typeof GOOGLE_SSML_GENDERS): GoogleVoice {
  return { languageCodes: [name.slice(0, name.indexOf('-', 3))], name, ssmlGender: gender, naturalSampleRateHertz: 24_000 };
}

export const GOOGLE_FAKE_VOICES: GoogleVoice[] = [
  voice('en-US-Standard-C', 'FEMALE'),
  voice('en-US-Wavenet-D', 'MALE'),
  voice('en-US-Neural2-F', 'FEMALE'),
  voice('en-US-Chirp3-HD-Charon', 'MALE'),
  voice('en-US-Studio-O', 'FEMALE'),
  voice('en-GB-Neural2-B', 'MALE'),
  voice('de-DE-Wavenet-F', 'FEMALE'),
  voice('fr-FR-Neural2-A', 'FEMALE'),
];
const VOICES_BY_NAME = new Map(GOOGLE_FAKE_VOICES.map((entry) => [entry.name, entry]));

export function googleError(status: number, message: string, context: FakeContext, details?: unknown[]): FakeErrorReply {
  return jsonError(status, { error: { code: status, message: `${message} [${context.leakMarker}]`, status: STATUS_NAMES[status] ?? 'UNKNOWN', ...(details ? { details } : {}) } });
}

const invalid = (message: string, context: FakeContext) => googleError(400, message, context);

/** Google answers a wrong API key with 400 INVALID_ARGUMENT and ErrorInfo reason API_KEY_INVALID, not 401. */
function keyInvalid(context: FakeContext): FakeErrorReply {
  return googleError(400, 'API key not valid. Please pass a valid API key.', context, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'texttospeech.googleapis.com' } },
  ]);
}

/** undefined when authenticated; the service's refusal otherwise. */
function authenticate(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | undefined {
  const key = headerValue(request.headers, 'x-goog-api-key') ?? request.query.get('key') ?? undefined;
  if (key !== undefined) return key === context.apiKey ? undefined : keyInvalid(context);
  const authorization = headerValue(request.headers, 'authorization') ?? '';
  if (authorization.startsWith('Bearer ') && isIssuedToken(authorization.slice(7))) return undefined;
  return googleError(401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', context, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: authorization ? 'ACCESS_TOKEN_TYPE_UNSUPPORTED' : 'CREDENTIALS_MISSING', domain: 'googleapis.com' },
  ]);
}

const inRange = (value: unknown, minimum: number, maximum: number) => value === undefined || (typeof value === 'number' && value >= minimum && value <= maximum);

/** AudioEncoding by name or, with enum-encoding=int, by number. */
function encodingOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Object.entries(GOOGLE_AUDIO_ENCODINGS).find(([, number]) => number === value)?.[0];
  return undefined;
}

function synthesize(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'POST') return googleError(405, 'Method not allowed', context);
  const refused = authenticate(request, context);
  if (refused) return refused;
  const body = request.body;
  if (!request.bodyIsJson || !isRecord(body)) return invalid('Invalid JSON payload received.', context);
  const { input, voice: voiceParams, audioConfig } = body;
  if (!isRecord(input)) return invalid('Invalid value at input', context);
  const given = ['text', 'ssml', 'markup', 'multiSpeakerMarkup'].filter((field) => input[field] !== undefined);
  if (given.length !== 1) return invalid('Exactly one of text, ssml or markup must be set.', context);
  const text = input.text ?? input.ssml ?? input.markup;
  if (typeof text !== 'string') return invalid('Only text, ssml and markup are simulated.', context);
  if (Buffer.byteLength(text) > MAX_INPUT_BYTES) return invalid(`Either input.text or input.ssml is longer than the limit of ${MAX_INPUT_BYTES} bytes.`, context);
  if (!isRecord(voiceParams) || typeof voiceParams.languageCode !== 'string' || voiceParams.languageCode === '') return invalid('Invalid value at voice.language_code', context);
  if (voiceParams.name !== undefined) {
    const known = typeof voiceParams.name === 'string' ? VOICES_BY_NAME.get(voiceParams.name) : undefined;
    if (!known) return invalid(`Voice '${String(voiceParams.name)}' does not exist. Is it misspelled?`, context);
    if (!known.languageCodes.some((code) => code.toLowerCase() === String(voiceParams.languageCode).toLowerCase())) {
      return invalid(`Requested language code '${voiceParams.languageCode}' doesn't match the voice '${known.name}'s language code '${known.languageCodes[0]}'.`, context);
    }
  }
  if (!isRecord(audioConfig)) return invalid('AudioConfig is required.', context);
  const encoding = encodingOf(audioConfig.audioEncoding);
  if (encoding === undefined || encoding === 'AUDIO_ENCODING_UNSPECIFIED') return invalid('Invalid value at audio_config.audio_encoding', context);
  if (encoding !== 'MP3' && encoding !== 'LINEAR16') return invalid(`The double simulates MP3 and LINEAR16 only, not ${encoding}.`, context);
  if (audioConfig.sampleRateHertz !== undefined && audioConfig.sampleRateHertz !== 24_000) return invalid('The double simulates sample_rate_hertz 24000 only.', context);
  if (!inRange(audioConfig.speakingRate, 0.25, 4)) return invalid('speaking_rate must be between 0.25 and 4.0.', context);
  if (!inRange(audioConfig.pitch, -20, 20)) return invalid('pitch must be between -20.0 and 20.0.', context);
  if (!inRange(audioConfig.volumeGainDb, -96, 16)) return invalid('volume_gain_db must be between -96.0 and 16.0.', context);
  const pretty = !['0', 'false'].includes(request.query.get('$prettyPrint') ?? request.query.get('prettyPrint') ?? '');
  const fakeEncoding = encoding as GoogleFakeEncoding;
  return {
    type: 'audio' as const,
    audio: googleJsonAudio(fakeEncoding, pretty),
    contentType: 'application/json; charset=UTF-8',
    bytesPerSecond: base64BytesPerSecond(fakeEncoding),
    characters: countCharacters(text),
  };
}

function listVoices(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'GET') return googleError(405, 'Method not allowed', context);
  const refused = authenticate(request, context);
  if (refused) return refused;
  const language = request.query.get('languageCode')?.toLowerCase();
  const numericEnums = (request.query.get('$alt') ?? '').includes('enum-encoding=int');
  const voices = GOOGLE_FAKE_VOICES.filter((entry) => !language || entry.languageCodes.some((code) => code.toLowerCase().startsWith(language))).map((entry) =>
    numericEnums ? { ...entry, ssmlGender: GOOGLE_SSML_GENDERS[entry.ssmlGender as keyof typeof GOOGLE_SSML_GENDERS] } : entry,
  );
  return jsonReply({ voices });
}

function token(request: FakeSpeechRequest) {
  if (request.method !== 'POST') return jsonError(405, { error: 'invalid_request', error_description: 'Method not allowed' });
  const form = new URLSearchParams(Buffer.from(request.rawBody ?? new Uint8Array(0)).toString('utf8'));
  const result = grantToken(form, `http://${headerValue(request.headers, 'host') ?? ''}/token`);
  if ('error' in result) return jsonError(400, { error: result.error, error_description: result.description });
  return jsonReply({ access_token: result.token, expires_in: result.expiresIn, token_type: 'Bearer' });
}

export const googleFake: FakeProviderHandler = {
  kind: 'google',
  // GOOGLE_BASE_URL is the bare origin (the client library's apiEndpoint); paths carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname === '/v1/text:synthesize' || pathname === '/v1/voices' || pathname === '/token',
  prepareAudio: () => {
    googleJsonAudio('MP3', true);
    googleJsonAudio('LINEAR16', true);
  },
  handle(request, context) {
    if (request.pathname === '/v1/text:synthesize') return synthesize(request, context);
    if (request.pathname === '/v1/voices') return listVoices(request, context);
    if (request.pathname === '/token') return token(request);
    return googleError(404, 'Not found', context);
  },
  errorForStatus(status, _request, context) {
    return googleError(status, 'The double was told to fail.', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(
      status,
      { error: { code: status, message: leakMarker, status: leakMarker, details: [{ '@type': leakMarker, reason: leakMarker, fieldViolations: [{ field: leakMarker, description: leakMarker }] }] } },
      markedHeaders(leakMarker, 'x-goog-request-id'),
    );
  },
};
