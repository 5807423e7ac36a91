// Fake of Amazon Polly: SynthesizeSpeech (POST /v1/speech) and DescribeVoices (GET /v1/voices). It verifies the
// AWS Signature V4 for real (recomputed with the same signer from the known test secret), validates like the
// service model, answers AWS rest-json errors (type in `x-amzn-ErrorType`, body `{"message"}`), and streams
// raw audio (mp3 or headerless s16le pcm at the asked SampleRate).

import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, randomUUID } from 'node:crypto';
import { mp3ToneAudio, pcmToneAudio } from '../testing/audio/tone-audio.js';
import {
  countCharacters,
  headerValue,
  isRecord,
  jsonError,
  jsonReply,
  type FakeContext,
  type FakeErrorReply,
  type FakeJsonReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import type { PollyEngine, PollyErrorType, PollyVoice } from './polly-api-types.js';
import { POLLY_MAX_INPUT_CHARACTERS, POLLY_SNAPSHOT_VOICES } from './polly-catalog.js';
import { POLLY_SIGNING_SERVICE, toSignerRequest } from './polly-signing.js';

/** The secret that belongs to the double's access key id (its `apiKey`): tests sign with it. */
export const POLLY_FAKE_SECRET_ACCESS_KEY = 'fake/Polly+Secret/K7MDENG/bPxRfiCYEXAMPLEKEY';
export const POLLY_FAKE_REGION = 'us-east-1';
/** How far a signature date may be from the double's clock (AWS allows 5 minutes). */
const MAX_CLOCK_SKEW_MS = 5 * 60 * 1000;
const MP3_KBPS = 48;
const ENGINES = new Set<PollyEngine>(['standard', 'neural', 'long-form', 'generative']);
const OUTPUT_FORMATS = new Set(['mp3', 'ogg_vorbis', 'ogg_opus', 'pcm', 'json', 'mulaw', 'alaw']);
const MP3_RATES = new Set(['8000', '16000', '22050', '24000']);
const PCM_RATES = new Set(['8000', '16000']);
/** Voices per DescribeVoices page, small so that listings page. */
const VOICES_PAGE_SIZE = 8;

/** The voices the double knows, with their engines (the catalog snapshot plus a few standard-only voices). */
export const POLLY_FAKE_VOICES: PollyVoice[] = [
  ...POLLY_SNAPSHOT_VOICES.map((voice) => ({
    Id: voice.id,
    Name: voice.name,
    Gender: (voice.labels.gender === 'male' ? 'Male' : 'Female') as 'Male' | 'Female',
    LanguageCode: voice.language,
    LanguageName: voice.language,
    SupportedEngines: voice.modelCompatibility as PollyEngine[],
  })),
  { Id: 'Raveena', Name: 'Raveena', Gender: 'Female', LanguageCode: 'en-IN', LanguageName: 'Indian English', SupportedEngines: ['standard'] },
  { Id: 'Aditi', Name: 'Aditi', Gender: 'Female', LanguageCode: 'hi-IN', LanguageName: 'Hindi', AdditionalLanguageCodes: ['en-IN'], SupportedEngines: ['standard'] },
  { Id: 'Russell', Name: 'Russell', Gender: 'Male', LanguageCode: 'en-AU', LanguageName: 'Australian English', SupportedEngines: ['standard'] },
];
const VOICES_BY_ID = new Map(POLLY_FAKE_VOICES.map((voice) => [voice.Id!, voice]));

const TYPE_FOR_STATUS: Record<number, PollyErrorType | 'UnknownOperationException' | 'ServiceUnavailableException'> = {
  400: 'ValidationException',
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  404: 'UnknownOperationException',
  429: 'ThrottlingException',
  500: 'ServiceFailureException',
  503: 'ServiceUnavailableException',
};

function awsError(status: number, type: string, message: string, context: FakeContext): FakeErrorReply {
  const requestId = randomUUID();
  return jsonError(status, { message: `${message} [${context.leakMarker}]` }, {
    'x-amzn-errortype': `${type}:http://internal.amazon.com/coral/com.amazonaws.polly.v20160610/`,
    'x-amzn-requestid': requestId,
  });
}

const AUTHORIZATION = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([a-z0-9-]+)\/([a-z0-9-]+)\/aws4_request, ?SignedHeaders=([a-z0-9:;_-]+), ?Signature=([0-9a-f]{64})$/;

function parseAmzDate(value: string | undefined): Date | undefined {
  const match = value ? /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value) : null;
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!));
}

function rawQuery(request: FakeSpeechRequest): string {
  const query = request.query.toString();
  return query ? `?${query}` : '';
}

/** Recomputes the signature from the known secret with the same signer the SDK uses; undefined when it holds. */
async function verifySignature(request: FakeSpeechRequest, context: FakeContext): Promise<FakeErrorReply | undefined> {
  const authorization = headerValue(request.headers, 'authorization');
  if (!authorization) return awsError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token', context);
  const match = AUTHORIZATION.exec(authorization);
  if (!match) return awsError(400, 'IncompleteSignatureException', 'Authorization header requires Credential, SignedHeaders and Signature', context);
  const [, accessKeyId, day, region, service, signedHeaderList, signature] = match as unknown as string[];
  if (accessKeyId !== context.apiKey) return awsError(403, 'UnrecognizedClientException', 'The security token included in the request is invalid.', context);
  if (service !== POLLY_SIGNING_SERVICE) return awsError(403, 'InvalidSignatureException', 'Credential should be scoped to correct service', context);
  const signingDate = parseAmzDate(headerValue(request.headers, 'x-amz-date'));
  if (!signingDate || signingDate.toISOString().slice(0, 10).replaceAll('-', '') !== day) {
    return awsError(403, 'InvalidSignatureException', 'Date in Credential scope does not match x-amz-date', context);
  }
  if (Math.abs(Date.now() - signingDate.getTime()) > MAX_CLOCK_SKEW_MS) return awsError(403, 'InvalidSignatureException', 'Signature expired', context);
  const signedNames = signedHeaderList!.split(';');
  if (!signedNames.includes('x-amz-date') || !(signedNames.includes('host') || signedNames.includes(':authority'))) {
    return awsError(403, 'InvalidSignatureException', 'Host and x-amz-date must be signed', context);
  }
  const headers: Record<string, string> = {};
  for (const name of signedNames) {
    const value = headerValue(request.headers, name);
    if (value === undefined) return awsError(403, 'InvalidSignatureException', `Signed header ${name} is missing`, context);
    headers[name] = value;
  }
  const host = headerValue(request.headers, 'host') ?? headerValue(request.headers, ':authority') ?? 'localhost';
  const body = request.rawBody && request.rawBody.length > 0 ? Buffer.from(request.rawBody).toString('utf8') : '';
  // The signer takes a sent x-amz-content-sha256 as the payload hash: it must be the hash of the body received.
  const contentSha256 = headerValue(request.headers, 'x-amz-content-sha256');
  if (contentSha256 !== undefined && contentSha256 !== createHash('sha256').update(body).digest('hex')) {
    return awsError(403, 'InvalidSignatureException', 'The provided x-amz-content-sha256 header does not match what was computed.', context);
  }
  const signerRequest = toSignerRequest({ method: request.method as 'POST', url: new URL(`http://${host}${request.pathname}${rawQuery(request)}`), headers, body });
  // Sign exactly the headers the client signed, with the host header only if it signed it.
  if (!signedNames.includes('host')) delete signerRequest.headers.host;
  const signer = new SignatureV4({
    service: POLLY_SIGNING_SERVICE,
    region: region!,
    credentials: { accessKeyId: accessKeyId!, secretAccessKey: POLLY_FAKE_SECRET_ACCESS_KEY, sessionToken: headers['x-amz-security-token'] },
    sha256: Sha256,
    applyChecksum: signedNames.includes('x-amz-content-sha256'),
  });
  const expected = await signer.sign(signerRequest, { signingDate });
  const expectedMatch = AUTHORIZATION.exec(String(expected.headers.authorization ?? ''));
  if (!expectedMatch || expectedMatch[5] !== signedHeaderList || expectedMatch[6] !== signature) {
    return awsError(
      403,
      'InvalidSignatureException',
      'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
      context,
    );
  }
  return undefined;
}

interface SpeechPlan {
  format: 'mp3' | 'pcm';
  sampleRate: number;
  characters: number;
}

function validateSpeech(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | SpeechPlan {
  const invalid = (message: string) => awsError(400, 'ValidationException', message, context);
  if (!request.bodyIsJson || !isRecord(request.body)) return awsError(400, 'SerializationException', 'Start of structure or map found where not expected.', context);
  const body = request.body;
  if (typeof body.Text !== 'string') return invalid("1 validation error detected: Value null at 'text' failed to satisfy constraint: Member must not be null");
  if (typeof body.OutputFormat !== 'string' || !OUTPUT_FORMATS.has(body.OutputFormat)) {
    return invalid("1 validation error detected: Value at 'outputFormat' failed to satisfy constraint: Member must satisfy enum value set");
  }
  if (typeof body.VoiceId !== 'string' || !VOICES_BY_ID.has(body.VoiceId)) {
    return invalid("1 validation error detected: Value at 'voiceId' failed to satisfy constraint: Member must satisfy enum value set");
  }
  const engine = body.Engine ?? 'standard';
  if (typeof engine !== 'string' || !ENGINES.has(engine as PollyEngine)) {
    return invalid("1 validation error detected: Value at 'engine' failed to satisfy constraint: Member must satisfy enum value set");
  }
  if (body.TextType !== undefined && body.TextType !== 'text' && body.TextType !== 'ssml') return invalid("Value at 'textType' failed to satisfy constraint");
  if (body.LanguageCode !== undefined && (typeof body.LanguageCode !== 'string' || !/^[a-z]{2,3}-[A-Z]{2}$/.test(body.LanguageCode))) {
    return invalid("Value at 'languageCode' failed to satisfy constraint: Member must satisfy enum value set");
  }
  if (body.SampleRate !== undefined && typeof body.SampleRate !== 'string') return awsError(400, 'SerializationException', 'SampleRate must be a string', context);
  const voice = VOICES_BY_ID.get(body.VoiceId)!;
  if (!voice.SupportedEngines!.includes(engine as PollyEngine)) {
    return awsError(400, 'EngineNotSupportedException', `This voice does not support the selected engine: ${engine}`, context);
  }
  if (body.LanguageCode !== undefined && body.LanguageCode !== voice.LanguageCode && !(voice.AdditionalLanguageCodes ?? []).includes(body.LanguageCode as string)) {
    return awsError(400, 'LanguageNotSupportedException', 'The language is not supported by this voice', context);
  }
  if (Array.isArray(body.LexiconNames) && body.LexiconNames.length > 0) {
    // The double stores no lexicons.
    return awsError(400, 'LexiconNotFoundException', `Lexicon not found: ${String(body.LexiconNames[0])}`, context);
  }
  const format = body.OutputFormat;
  if (format !== 'mp3' && format !== 'pcm') return awsError(400, 'ValidationException', 'The fake only simulates mp3 and pcm output', context);
  const rates = format === 'mp3' ? MP3_RATES : PCM_RATES;
  const sampleRate = (body.SampleRate as string | undefined) ?? (format === 'pcm' ? '16000' : engine === 'standard' ? '22050' : '24000');
  if (!rates.has(sampleRate)) return awsError(400, 'InvalidSampleRateException', `Invalid sample rate ${sampleRate} for ${format}`, context);
  const characters = countCharacters(body.Text);
  if (characters > POLLY_MAX_INPUT_CHARACTERS) {
    return awsError(400, 'TextLengthExceededException', `Maximum text length has been exceeded`, context);
  }
  if (body.Text.trim() === '') return invalid('Text must not be empty');
  return { format, sampleRate: Number(sampleRate), characters };
}

function describeVoices(request: FakeSpeechRequest, context: FakeContext): FakeErrorReply | FakeJsonReply {
  const engine = request.query.get('Engine');
  if (engine !== null && !ENGINES.has(engine as PollyEngine)) return awsError(400, 'ValidationException', "Value at 'engine' failed to satisfy constraint", context);
  const language = request.query.get('LanguageCode');
  const withAdditional = request.query.get('IncludeAdditionalLanguageCodes') === 'true';
  const matching = POLLY_FAKE_VOICES.filter(
    (voice) =>
      (engine === null || voice.SupportedEngines!.includes(engine as PollyEngine)) &&
      (language === null || voice.LanguageCode === language || (withAdditional && (voice.AdditionalLanguageCodes ?? []).includes(language))),
  );
  const token = request.query.get('NextToken');
  const start = token === null ? 0 : Number.parseInt(Buffer.from(token, 'base64url').toString('utf8').replace(/^page:/, ''), 10);
  if (!Number.isInteger(start) || start < 0 || start > matching.length) return awsError(400, 'InvalidNextTokenException', 'The NextToken is invalid', context);
  const end = start + VOICES_PAGE_SIZE;
  const nextToken = end < matching.length ? Buffer.from(`page:${end}`).toString('base64url') : undefined;
  return jsonReply({ Voices: matching.slice(start, end), ...(nextToken ? { NextToken: nextToken } : {}) }, { 'x-amzn-requestid': randomUUID() });
}

export const pollyFake: FakeProviderHandler = {
  kind: 'polly',
  // The endpoint is the bare origin (AWS_ENDPOINT_URL_POLLY); operations carry /v1.
  basePath: '',
  ownsPath: (pathname) => pathname === '/v1/speech' || pathname === '/v1/voices',
  prepareAudio: () => {
    pcmToneAudio(16_000);
    mp3ToneAudio(MP3_KBPS, 24_000);
  },
  async handle(request, context) {
    const operation =
      request.method === 'POST' && request.pathname === '/v1/speech' ? 'speech' : request.method === 'GET' && request.pathname === '/v1/voices' ? 'voices' : undefined;
    if (!operation) return awsError(404, 'UnknownOperationException', 'Unknown operation', context);
    const signatureError = await verifySignature(request, context);
    if (signatureError) return signatureError;
    if (operation === 'voices') return describeVoices(request, context);
    const plan = validateSpeech(request, context);
    if ('type' in plan) return plan;
    const headers = { 'x-amzn-requestid': randomUUID(), 'x-amzn-requestcharacters': String(plan.characters) };
    if (plan.format === 'mp3') {
      return { type: 'audio', audio: mp3ToneAudio(MP3_KBPS, plan.sampleRate), contentType: 'audio/mpeg', bytesPerSecond: (MP3_KBPS * 1000) / 8, characters: plan.characters, headers };
    }
    return { type: 'audio', audio: pcmToneAudio(plan.sampleRate), contentType: 'audio/pcm', bytesPerSecond: plan.sampleRate * 2, characters: plan.characters, headers };
  },
  errorForStatus(status, _request, context) {
    // AWS has no 402; other statuses get a type no classifier knows, so the status decides.
    const type = TYPE_FOR_STATUS[status] ?? (status >= 500 ? 'ServiceFailureException' : 'UnknownError');
    return awsError(status, type, 'The fake was told to fail', context);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { message: leakMarker, __type: leakMarker }, {
      'x-amzn-errortype': `${leakMarker}:http://internal.amazon.com/${leakMarker}`,
      'x-amzn-requestid': leakMarker,
      'x-debug-trace': leakMarker,
      'retry-after': leakMarker,
      'www-authenticate': `AWS4-HMAC-SHA256 realm="${leakMarker}"`,
    });
  },
};
