// Turns a provider definition (pure mapping + error parser + catalog) into a SpeechAdapter that talks HTTP.
// Every HTTP provider goes through this one path, so deadlines, cancellation and error hygiene are shared.

import type { OutputDescription } from '@voice-router/audio';
import { InvalidSpeechRequestError } from '../errors.js';
import { checkKnownModel } from '../shared/speech-checks.js';
import { openAudioStream, type OpenAudioStreamOptions } from '../streaming/open-audio-stream.js';
import { isTextFramed, transcodeUpstream } from '../streaming/transcode-upstream.js';
import type { ProviderDescriptor, SpeechAdapter, SpeechInput } from '../types.js';
import { ConnectionPools } from './connection-pools.js';
import { sendSpeechRequest, type UpstreamErrorClassifier } from './send-speech-request.js';
import { mapTransportError } from './transport-errors.js';

/** The output of a provider's pure mapping function. `path` is relative to the base URL (after its version path). */
export interface HttpSpeechRequest {
  method: 'POST';
  path: string;
  headers: Record<string, string>;
  body: string;
  warnings: string[];
  /**
   * What the upstream answers with for this request, when that is not already the requested format
   * (e.g. WAV at 48 kHz, base64 audio in SSE events). The body is then converted while it streams.
   * Absent: the upstream sends exactly the requested format.
   */
  output?: OutputDescription;
  /**
   * The upstream reports errors inside a success answer (MiniMax: HTTP 200 with `base_resp`): a 2xx answer
   * whose content type is application/json is then read (bounded) and classified like an error answer; it is
   * never streamed as audio.
   */
  successJsonIsError?: boolean;
}

export interface HttpProviderCredentials {
  apiKey: string;
  /** The module's whole settings object (region, project...), for providers that need more than a key. */
  settings: Readonly<Record<string, unknown>>;
}

export interface HttpProviderDefinition {
  id: string;
  /** The official SDK's default base URL, version path included where the SDK includes it. */
  defaultBaseUrl: string;
  descriptor: ProviderDescriptor;
  /** Pure: no I/O. Throws InvalidSpeechRequestError for requests the provider cannot take. */
  buildRequest(input: SpeechInput, credentials: HttpProviderCredentials): HttpSpeechRequest;
  /** Pure: classifies an error answer into the router's categories; must not throw on garbage. */
  classifyError: UpstreamErrorClassifier;
  /**
   * Signs each attempt (e.g. AWS Signature V4) once the full target is known: returns the headers to send.
   * Absent: the mapping's headers go out as they are.
   */
  signRequest?(request: SignableHttpRequest, credentials: HttpProviderCredentials): Promise<Record<string, string>>;
}

/** What a signer sees of one attempt: the absolute URL (base path and query included), headers and body. */
export interface SignableHttpRequest {
  method: 'POST' | 'GET';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface HttpAdapterSettings {
  apiKey: string;
  /** The module's whole settings object, handed to buildRequest with the key. */
  settings?: Readonly<Record<string, unknown>>;
  /**
   * Defaults to the provider's public endpoint. Follows the provider's official SDK: it includes whatever
   * version path that SDK's base URL includes (OpenAI's ends in /v1), and may carry a proxy's path prefix.
   * A trailing slash is accepted.
   */
  baseUrl?: string;
  /** Deadline per attempt until the first audio byte. */
  firstByteTimeoutMs: number;
  /** Longest gap between audio chunks once streaming. Default 30 s. */
  streamIdleTimeoutMs?: number;
  /** Shared pools; when absent the adapter owns private ones and closes them itself. */
  pools?: ConnectionPools;
}

interface ParsedBaseUrl {
  origin: string;
  /** Path prefix without trailing slash ('' for none). */
  basePath: string;
}

function parseBaseUrl(provider: string, baseUrl: string): ParsedBaseUrl {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`${provider}: baseUrl is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`${provider}: baseUrl must be http(s)`);
  if (url.username || url.password || url.search || url.hash) {
    throw new TypeError(`${provider}: baseUrl must not contain credentials, a query or a fragment`);
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') };
}

/**
 * The mapped headers plus the caller's trace. Copied by a loop, not `{ ...headers, traceparent }`: on Node 20,
 * adding a property to an object made by spreading costs ~0.5–1 µs, per request here.
 */
function withTraceparent(headers: Record<string, string>, traceparent: string): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const name in headers) copy[name] = headers[name]!;
  copy.traceparent = traceparent;
  return copy;
}

export function createHttpSpeechAdapter(definition: HttpProviderDefinition, settings: HttpAdapterSettings): SpeechAdapter {
  if (!settings.apiKey) throw new TypeError(`${definition.id}: an API key is required`);
  const { origin, basePath } = parseBaseUrl(definition.id, settings.baseUrl ?? definition.defaultBaseUrl);
  const ownsPools = settings.pools === undefined;
  const pools = settings.pools ?? new ConnectionPools();
  const credentials: HttpProviderCredentials = { apiKey: settings.apiKey, settings: settings.settings ?? {} };
  const streamIdleTimeoutMs = settings.streamIdleTimeoutMs ?? 30_000;
  // Made once, out here: a closure made inside synthesize would share its scope with `open`, and the
  // stream keeps its error mapper, so the mapped request (its body holds the whole input) would live as
  // long as the stream instead of until the upstream answers.
  const mapError: OpenAudioStreamOptions['mapError'] = (error, phase) => mapTransportError(definition.id, error, phase);

  return {
    descriptor: definition.descriptor,
    async synthesize(input, { signal, traceparent }) {
      checkKnownModel(definition.descriptor, input);
      const request = definition.buildRequest(input, credentials);
      // The caller's trace continues upstream (W3C Trace Context); the mapping stays pure of it.
      const headers = traceparent ? withTraceparent(request.headers, traceparent) : request.headers;
      if (!request.path.startsWith('/')) throw new InvalidSpeechRequestError('mapped path must be absolute');
      const audio = await openAudioStream({
        provider: definition.id,
        signal,
        firstByteTimeoutMs: settings.firstByteTimeoutMs,
        open: async (attemptSignal) =>
          transcodeUpstream(
            definition.id,
            await sendSpeechRequest(
              pools.get(origin),
              {
                method: request.method,
                path: basePath + request.path,
                // Signed per attempt, so a retry carries a fresh signature date.
                headers: definition.signRequest
                  ? await definition.signRequest({ method: request.method, url: new URL(basePath + request.path, origin), headers, body: request.body }, credentials)
                  : headers,
                body: request.body,
              },
              {
                provider: definition.id,
                signal: attemptSignal,
                headersTimeoutMs: settings.firstByteTimeoutMs,
                bodyIdleTimeoutMs: streamIdleTimeoutMs,
                classifyError: definition.classifyError,
                textBody: isTextFramed(request.output),
                successJsonIsError: request.successJsonIsError,
              },
            ),
            request.output,
            input.format,
          ),
        mapError,
      });
      return { warnings: request.warnings, audio };
    },
    async close() {
      if (ownsPools) await pools.close();
    },
  };
}
