// Fake of Azure AI Speech's REST TTS: POST /cognitiveservices/v1 with an SSML body (parsed strictly, voices
// checked), X-Microsoft-OutputFormat picking mp3 or raw pcm, Ocp-Apim-Subscription-Key auth with the API
// gateway's `{"error": {"code", "message"}}` bodies, and GET /cognitiveservices/voices/list.

import { mp3ToneAudio, pcmToneAudio } from '../testing/audio/tone-audio.js';
import {
  headerValue,
  jsonError,
  jsonReply,
  markedHeaders,
  type FakeContext,
  type FakeErrorReply,
  type FakeProviderHandler,
  type FakeSpeechRequest,
} from '../testing/server/fake-handler.js';
import { AZURE_MP3_FORMATS, AZURE_PCM_FORMAT, azureMp3SampleRate, type AzureMp3Format, type AzureVoiceListEntry } from './azure-api-types.js';
import { elementsNamed, parseXml, textOf, XmlSyntaxError, type XmlElement } from './azure-ssml-reader.js';

function listEntry(shortName: string, displayName: string, gender: string, styles: string[] = []): AzureVoiceListEntry {
  const locale = shortName.slice(0, shortName.lastIndexOf('-'));
  const voice = shortName.slice(locale.length + 1);
  return {
    Name: `Microsoft Server Speech Text to Speech Voice (${locale}, ${voice})`,
    DisplayName: displayName,
    LocalName: displayName,
    ShortName: shortName,
    Gender: gender,
    Locale: locale,
    LocaleName: locale,
    StyleList: styles,
    SampleRateHertz: '24000',
    VoiceType: 'Neural',
    Status: 'GA',
    WordsPerMinute: '150',
  };
}

/** The double's voice list, in voices/list's shape. */
export const AZURE_FAKE_VOICES: AzureVoiceListEntry[] = [
  listEntry('en-US-AvaMultilingualNeural', 'Ava Multilingual', 'Female'),
  listEntry('en-US-AndrewMultilingualNeural', 'Andrew Multilingual', 'Male'),
  listEntry('en-US-JennyNeural', 'Jenny', 'Female', ['assistant', 'chat', 'customerservice']),
  listEntry('en-US-GuyNeural', 'Guy', 'Male', ['newscast']),
  listEntry('en-GB-SoniaNeural', 'Sonia', 'Female', ['cheerful', 'sad']),
  listEntry('de-DE-KatjaNeural', 'Katja', 'Female'),
  listEntry('fr-FR-DeniseNeural', 'Denise', 'Female'),
  listEntry('es-ES-AlvaroNeural', 'Álvaro', 'Male'),
];
const KNOWN_VOICES = new Set(AZURE_FAKE_VOICES.flatMap((voice) => [voice.ShortName, voice.Name]));
const PROSODY_RATE = /^([+-]?\d+(\.\d+)?%|\d+(\.\d+)?|x-slow|slow|medium|fast|x-fast|default)$/;

/** The API gateway's answer for a key problem or throttling. */
function gatewayError(status: number, message: string, context: FakeContext): FakeErrorReply {
  return jsonError(status, { error: { code: String(status), message: `${message} [${context.leakMarker}]` } });
}

/** The TTS service itself answers most refusals with an empty body. */
function emptyError(status: number): FakeErrorReply {
  return { type: 'error', status, contentType: 'text/plain', body: '' };
}

function badDocument(root: XmlElement): boolean {
  if (root.name !== 'speak' || root.attributes.version !== '1.0' || !root.attributes['xml:lang']) return true;
  const voices = elementsNamed(root, 'voice');
  if (voices.length === 0 || voices.length > 50) return true;
  return elementsNamed(root, 'prosody').some((prosody) => prosody.attributes.rate !== undefined && !PROSODY_RATE.test(prosody.attributes.rate));
}

/** Reads and checks the SSML body: undefined when it is fine, else the service's refusal. */
function checkSsml(request: FakeSpeechRequest): { error?: FakeErrorReply; characters: number } {
  let root: XmlElement;
  try {
    root = parseXml(Buffer.from(request.rawBody ?? new Uint8Array(0)).toString('utf8'));
  } catch (error) {
    if (error instanceof XmlSyntaxError) return { error: emptyError(400), characters: 0 };
    throw error;
  }
  if (badDocument(root)) return { error: emptyError(400), characters: 0 };
  const voices = elementsNamed(root, 'voice');
  if (voices.some((voice) => !KNOWN_VOICES.has(voice.attributes.name ?? ''))) return { error: emptyError(400), characters: 0 };
  return { characters: [...voices.map(textOf).join('')].length };
}

function speak(request: FakeSpeechRequest, context: FakeContext) {
  if (request.method !== 'POST') return emptyError(405);
  if (headerValue(request.headers, 'ocp-apim-subscription-key') !== context.apiKey) {
    return gatewayError(401, 'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.', context);
  }
  const contentType = (headerValue(request.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (contentType !== 'application/ssml+xml') return emptyError(415);
  const format = headerValue(request.headers, 'x-microsoft-outputformat') ?? '';
  const isMp3 = (AZURE_MP3_FORMATS as readonly string[]).includes(format);
  if (!isMp3 && format !== AZURE_PCM_FORMAT) return emptyError(400);
  const { error, characters } = checkSsml(request);
  if (error) return error;
  if (isMp3) {
    const kbps = Number(/-(\d+)kbitrate-/.exec(format)![1]);
    return { type: 'audio' as const, audio: mp3ToneAudio(kbps, azureMp3SampleRate(format as AzureMp3Format)), contentType: 'audio/mpeg', bytesPerSecond: (kbps * 1000) / 8, characters };
  }
  return { type: 'audio' as const, audio: pcmToneAudio(), contentType: 'application/octet-stream', bytesPerSecond: 48_000, characters };
}

export const azureFake: FakeProviderHandler = {
  kind: 'azure',
  // AZURE_BASE_URL is the bare origin (https://<region>.tts.speech.microsoft.com); paths carry /cognitiveservices.
  basePath: '',
  ownsPath: (pathname) => pathname.startsWith('/cognitiveservices/'),
  prepareAudio: () => {
    pcmToneAudio();
    mp3ToneAudio(96, 24_000);
  },
  handle(request, context) {
    if (request.pathname === '/cognitiveservices/voices/list') {
      if (request.method !== 'GET') return emptyError(405);
      if (headerValue(request.headers, 'ocp-apim-subscription-key') !== context.apiKey) return gatewayError(401, 'Access denied due to invalid subscription key.', context);
      return jsonReply(AZURE_FAKE_VOICES);
    }
    if (request.pathname === '/cognitiveservices/v1') return speak(request, context);
    return gatewayError(404, 'Resource not found', context);
  },
  errorForStatus(status, _request, context) {
    if (status === 401 || status === 403) return gatewayError(status, 'Access denied due to invalid subscription key or wrong API endpoint.', context);
    if (status === 429) return gatewayError(status, 'Rate limit is exceeded. Try again later.', context);
    return emptyError(status);
  },
  markedError(status, { leakMarker }) {
    return jsonError(status, { error: { code: leakMarker, message: leakMarker } }, markedHeaders(leakMarker, 'apim-request-id'));
  },
};
