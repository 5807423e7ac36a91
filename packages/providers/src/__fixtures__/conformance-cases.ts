// The adapters under the shared conformance suite, each with how to reach it and where its voice and key go.

import { startFakeProvider, type FakeProviderServer, type RecordedRequest } from '../testing/index.js';
import type { ClientRefusalCase, ConformanceFixture } from '../testing/test-kit.js';
import { ConnectionPools } from '../http/connection-pools.js';
import { providerModules } from '../provider-list.js';
import type { ProviderModule } from '../provider-module.js';
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
  close(): Promise<void>;
}

export interface HttpConformanceCase {
  name: string;
  kind: 'http';
  fakeKind: string;
  /** Client-caused refusals as this provider words them (unknown voice, unknown model...). */
  clientRefusals: ClientRefusalCase[];
  /** Header that must carry the key, and its exact value. */
  authHeader(apiKey: string): [name: string, value: string];
  /** The status a wrong key gets (401 unless the provider says otherwise). */
  authFailureStatus: number;
  /** Throws unless the recorded request put `voice` exactly where the provider expects it. */
  expectVoicePlacement(recorded: RecordedRequest, voice: string): void;
  setUp(): Promise<ConformanceTarget>;
}

/** Slow enough that a long text streams for seconds, fast enough that short texts finish quickly. */
const FAKE_PACING = { chunkBytes: 2048, chunkIntervalMs: 2 };
export const ATTEMPT_TIMEOUT_MS = 2000;

function httpCase(module: ProviderModule<never>, fixture: ConformanceFixture): HttpConformanceCase {
  const settingsFor = fixture.settings ?? ((apiKey: string, baseUrl: string) => ({ apiKey, baseUrl }));
  return {
    name: module.id,
    kind: 'http',
    fakeKind: module.id,
    clientRefusals: fixture.clientRefusals,
    authHeader: fixture.authHeader,
    authFailureStatus: fixture.authFailureStatus ?? 401,
    expectVoicePlacement: fixture.expectVoicePlacement,
    async setUp() {
      const fake = await startFakeProvider(module.id, FAKE_PACING);
      const pools = new ConnectionPools();
      const context = { attemptTimeoutMs: ATTEMPT_TIMEOUT_MS, pools };
      const adapterWithKey = (apiKey: string) => module.create(settingsFor(apiKey, fake.baseUrl) as never, context);
      return {
        adapter: adapterWithKey(fake.apiKey),
        adapterWithKey,
        fake,
        mp3SampleRate: module.output?.mp3?.sampleRate,
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
