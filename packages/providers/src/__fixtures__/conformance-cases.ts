// The adapters under the shared conformance suite, each with how to reach it and where its voice and key go.

import { startFakeProvider, type FakeProviderServer, type RecordedRequest } from '../testing/index.js';
import type { ClientRefusalCase, ConformanceFixture } from '../testing/test-kit.js';
import { ConnectionPools } from '../http/connection-pools.js';
import { openAICompatibleHostModules } from '../openai/openai-compatible-hosts.js';
import { providerModules } from '../provider-list.js';
import type { ProviderModule } from '../provider-module.js';
import { createProviderRegistry, type ProviderRegistry, type ProviderRegistryConfig } from '../registry.js';
import type { UpstreamFailureCategory } from '../errors.js';
import type { AudioFormat, SpeechAdapter, SpeechInput } from '../types.js';

export type { ClientRefusalCase };

export interface ConformanceTarget {
  adapter: SpeechAdapter;
  input(format: AudioFormat, overrides?: Partial<SpeechInput>): SpeechInput;
  /** Present for HTTP adapters: the fake they talk to. */
  fake?: FakeProviderServer;
  /** The sample rate the provider's mp3 has (its module's `output.mp3`); 24 kHz when undeclared. */
  mp3SampleRate?: number;
  /** An adapter of the same provider configured with a wrong key (HTTP only). */
  adapterWithKey?(apiKey: string): SpeechAdapter;
  /** The fixture's `longText`, for providers whose input limit is below the suite's long text. */
  longText?: string;
  /**
   * A registry serving only this provider, configured against the double (HTTP only): retries and the breaker
   * run exactly as in production. The caller closes it; the suite's double and pools outlive it.
   */
  registryWith?(config: Pick<ProviderRegistryConfig, 'maxAttempts' | 'backoffBaseMs' | 'breaker'>): ProviderRegistry;
  close(): Promise<void>;
}

export interface HttpConformanceCase {
  name: string;
  kind: 'http';
  fakeKind: string;
  /** Client-caused refusals as this provider words them (unknown voice, unknown model...). */
  clientRefusals: ClientRefusalCase[];
  /** Header that must carry the key, and its exact value (or a pattern). */
  authHeader(apiKey: string): [name: string, value: string | RegExp];
  /** The status a wrong key gets (default 401). */
  wrongKeyStatus?: number;
  /** Whether the module lists voices live from the provider's voice API (else its fixed list stands). */
  listsVoicesLive: boolean;
  /** Throws unless the recorded request put `voice` exactly where the provider expects it. */
  expectVoicePlacement(recorded: RecordedRequest, voice: string): void;
  setUp(): Promise<ConformanceTarget>;
}

/** The compatible host the suite runs; the base URL is replaced by the double's at set-up. */
const CONFORMANCE_COMPATIBLE_HOST = {
  OPENAI_COMPATIBLE_ACME_SPEECH_BASE_URL: 'https://speech.acme.example/v1',
  OPENAI_COMPATIBLE_ACME_SPEECH_API_KEY: 'sk-acme-placeholder',
  OPENAI_COMPATIBLE_ACME_SPEECH_MODELS: 'tts-1=15, gpt-4o-mini-tts=20',
  OPENAI_COMPATIBLE_ACME_SPEECH_VOICES: 'alloy,coral',
};

/** Slow enough that a long text streams for seconds, fast enough that short texts finish quickly. */
const FAKE_PACING = { chunkBytes: 2048, chunkIntervalMs: 2 };
export const ATTEMPT_TIMEOUT_MS = 2000;

function httpCase(module: ProviderModule<never>, fixture: ConformanceFixture, fakeKind: string = module.id): HttpConformanceCase {
  const settingsFor = fixture.settings ?? ((apiKey: string, baseUrl: string) => ({ apiKey, baseUrl }));
  return {
    name: module.id,
    kind: 'http',
    fakeKind,
    clientRefusals: fixture.clientRefusals,
    authHeader: fixture.authHeader,
    wrongKeyStatus: fixture.wrongKeyStatus,
    listsVoicesLive: module.listVoices !== undefined,
    expectVoicePlacement: fixture.expectVoicePlacement,
    async setUp() {
      const fake = await startFakeProvider(fakeKind, FAKE_PACING);
      const pools = new ConnectionPools();
      const context = { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, pools };
      const adapterWithKey = (apiKey: string) => module.create(settingsFor(apiKey, fake.baseUrl) as never, context);
      return {
        adapter: adapterWithKey(fake.apiKey),
        adapterWithKey,
        fake,
        mp3SampleRate: module.output?.mp3?.sampleRate,
        longText: fixture.longText,
        registryWith: (config) =>
          createProviderRegistry(
            { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, ...config, providers: { [module.id]: settingsFor(fake.apiKey, fake.baseUrl) } },
            [module],
          ),
        input: (format, overrides = {}) => ({ ...fixture.baseInput, format, ...overrides }),
        async close() {
          await pools.close();
          await fake.close();
        },
      };
    },
  };
}

/** Every listed provider with a test kit, picked up from the provider list. */
export async function loadHttpConformanceCases(): Promise<HttpConformanceCase[]> {
  const cases: HttpConformanceCase[] = [];
  for (const module of providerModules) {
    if (module.testKit) cases.push(httpCase(module, (await module.testKit()).conformance));
  }
  // An OpenAI-compatible host declared by settings alone (OPENAI_COMPATIBLE_*), served by the OpenAI double.
  const [host] = openAICompatibleHostModules(CONFORMANCE_COMPATIBLE_HOST, providerModules.map((module) => module.id));
  cases.push(httpCase(host as ProviderModule<never>, (await import('../openai/openai-test-kit.js')).openAITestKit.conformance, 'openai'));
  return cases;
}

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
