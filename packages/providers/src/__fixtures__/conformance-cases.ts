// The adapters under the shared conformance suite, each with how to reach it and where its voice and key go.

import {
  startFakeProvider,
  type FakeProviderKind,
  type FakeProviderServer,
  type RecordedRequest,
} from '@voice-router/provider-fakes';
import { ConnectionPools } from '../http/connection-pools.js';
import { cartesiaProvider } from '../cartesia/index.js';
import { elevenLabsProvider } from '../elevenlabs/index.js';
import { openAIProvider } from '../openai/index.js';
import type { HttpProviderConfig, ProviderModule } from '../provider-module.js';
import type { RequestField, UpstreamFailureCategory } from '../errors.js';
import type { AudioFormat, SpeechAdapter, SpeechInput } from '../types.js';

export interface ConformanceTarget {
  adapter: SpeechAdapter;
  input(format: AudioFormat, overrides?: Partial<SpeechInput>): SpeechInput;
  /** Present for HTTP adapters: the fake they talk to. */
  fake?: FakeProviderServer;
  /** An adapter of the same provider configured with a wrong key (HTTP only). */
  adapterWithKey?(apiKey: string): SpeechAdapter;
  close(): Promise<void>;
}

/** A request the real provider refuses because of a value the client chose, and the field the router must name. */
export interface ClientRefusalCase {
  description: string;
  overrides: Partial<SpeechInput>;
  field: RequestField | undefined;
}

export interface HttpConformanceCase {
  name: string;
  kind: 'http';
  fakeKind: FakeProviderKind;
  /** Client-caused refusals as this provider words them (unknown voice, unknown model...). */
  clientRefusals: ClientRefusalCase[];
  /** Header that must carry the key, and its exact value. */
  authHeader(apiKey: string): [name: string, value: string];
  /** Throws unless the recorded request put `voice` exactly where the provider expects it. */
  expectVoicePlacement(recorded: RecordedRequest, voice: string): void;
  setUp(): Promise<ConformanceTarget>;
}

/** Slow enough that a long text streams for seconds, fast enough that short texts finish quickly. */
const FAKE_PACING = { chunkBytes: 2048, chunkIntervalMs: 2 };
export const ATTEMPT_TIMEOUT_MS = 2000;

function httpCase(
  name: string,
  fakeKind: FakeProviderKind,
  module: ProviderModule<HttpProviderConfig>,
  baseInput: Omit<SpeechInput, 'format'>,
  authHeader: HttpConformanceCase['authHeader'],
  expectVoicePlacement: HttpConformanceCase['expectVoicePlacement'],
  clientRefusals: ClientRefusalCase[],
): HttpConformanceCase {
  return {
    name,
    kind: 'http',
    fakeKind,
    clientRefusals,
    authHeader,
    expectVoicePlacement,
    async setUp() {
      const fake = await startFakeProvider(fakeKind, FAKE_PACING);
      const pools = new ConnectionPools();
      const context = { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, pools };
      const adapterWithKey = (apiKey: string) => module.create({ apiKey, baseUrl: fake.baseUrl }, context);
      return {
        adapter: adapterWithKey(fake.apiKey),
        adapterWithKey,
        fake,
        input: (format, overrides = {}) => ({ ...baseInput, format, ...overrides }),
        async close() {
          await pools.close();
          await fake.close();
        },
      };
    },
  };
}

function bodyOf(recorded: RecordedRequest): Record<string, unknown> {
  return recorded.body as Record<string, unknown>;
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

export const httpConformanceCases: HttpConformanceCase[] = [
  httpCase(
    'openai',
    'openai',
    openAIProvider,
    { modelId: 'tts-1', voice: 'alloy', text: 'Hello from the conformance suite.', providerOptions: {} },
    (apiKey) => ['authorization', `Bearer ${apiKey}`],
    (recorded, voice) => {
      expectEqual(recorded.path, '/v1/audio/speech', 'path');
      expectEqual(bodyOf(recorded).voice, voice.startsWith('voice_') ? { id: voice } : voice, 'body voice');
    },
    [
      { description: 'unknown voice (400, param voice)', overrides: { voice: 'robot' }, field: 'voice' },
      { description: 'unknown model (404 model_not_found)', overrides: { modelId: 'tts-9' }, field: 'model' },
      {
        description: 'instructions over 4096 characters (400, param instructions)',
        overrides: { modelId: 'gpt-4o-mini-tts', instructions: 'x'.repeat(5000) },
        field: 'instructions',
      },
    ],
  ),
  httpCase(
    'elevenlabs',
    'elevenlabs',
    elevenLabsProvider,
    { modelId: 'eleven_flash_v2_5', voice: '21m00Tcm4TlvDq8ikWAM', text: 'Hello from the conformance suite.', providerOptions: {} },
    (apiKey) => ['xi-api-key', apiKey],
    (recorded, voice) => {
      const [pathname, query] = recorded.path.split('?');
      const segments = pathname!.split('/');
      expectEqual(segments.length, 5, 'segment count');
      expectEqual([segments[0], segments[1], segments[2], segments[4]], ['', 'v1', 'text-to-speech', 'stream'], 'route');
      expectEqual(decodeURIComponent(segments[3]!), voice, 'decoded voice segment');
      expectEqual(new URLSearchParams(query).get('output_format') !== null, true, 'output_format present');
    },
    [
      { description: 'unknown voice (404 voice_not_found)', overrides: { voice: 'no-such-voice' }, field: 'voice' },
      { description: 'unknown model (400 model_not_found)', overrides: { modelId: 'eleven_unknown_v9' }, field: 'model' },
    ],
  ),
  httpCase(
    'cartesia',
    'cartesia',
    cartesiaProvider,
    { modelId: 'sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', text: 'Hello from the conformance suite.', providerOptions: {} },
    (apiKey) => ['authorization', `Bearer ${apiKey}`],
    (recorded, voice) => {
      expectEqual(recorded.path, '/tts/bytes', 'path');
      expectEqual(bodyOf(recorded).voice, { id: voice }, 'body voice');
    },
    [
      { description: 'unknown voice (404 Voice not found)', overrides: { voice: '00000000-0000-0000-0000-000000000000' }, field: 'voice' },
      { description: 'sunset model (400 model_sunsetted)', overrides: { modelId: 'sonic-english' }, field: 'model' },
      { description: 'unknown model (400 without an error code)', overrides: { modelId: 'sonic-9' }, field: undefined },
    ],
  ),
];

/** What every provider's fake answers for `{ status }` and the category the router must give it. */
export const STATUS_CATEGORIES: Array<[status: number, category: UpstreamFailureCategory, retryable: boolean]> = [
  [401, 'upstream_auth_failed', false],
  [403, 'upstream_auth_failed', false],
  [402, 'upstream_quota_exceeded', false],
  [429, 'upstream_rate_limited', true],
  [500, 'upstream_server_error', true],
  [502, 'upstream_server_error', true],
  [503, 'upstream_server_error', true],
];

/** Voices crafted to escape a URL path segment or smuggle a query or fragment. */
export const PATH_INJECTION_VOICES = [
  '../x',
  '../../v1/voices',
  '..%2F..%2Fadmin',
  '%2F',
  'a/b',
  'a?x=1',
  'a&output_format=wav_48000',
  'a#fragment',
  'with space',
  'ünïcødé-声音',
  '..',
  '.',
];
