// What a provider folder exports for tests: its HTTP double (a faithful stand-in for the real service) and the
// fixture the shared conformance suite runs it with. Loaded lazily through `ProviderModule.testKit()`.

import type { RequestField } from '../errors.js';
import type { SpeechInput } from '../types.js';
import type { FakeProviderHandler } from './server/fake-handler.js';
import type { RecordedRequest } from './types.js';

/** A request the real provider refuses because of a value the client chose, and the field the router must name. */
export interface ClientRefusalCase {
  description: string;
  overrides: Partial<SpeechInput>;
  field: RequestField | undefined;
}

export interface ConformanceFixture {
  /** A request the double answers with audio (the format is added by the suite). */
  baseInput: Omit<SpeechInput, 'format'>;
  /** Client-caused refusals as this provider words them (unknown voice, unknown model...). */
  clientRefusals: ClientRefusalCase[];
  /** Header that must carry the key, and its exact value. */
  authHeader(apiKey: string): [name: string, value: string];
  /** The status the provider answers a wrong key with, when not 401 (Google: 400 API_KEY_INVALID). */
  authFailureStatus?: number;
  /** Throws unless the recorded request put `voice` exactly where the provider expects it. */
  expectVoicePlacement(recorded: RecordedRequest, voice: string): void;
  /**
   * The module settings that point at the double. Default `{ apiKey, baseUrl }`; providers with other
   * credentials (AWS keys, a region) map the double's key and base URL onto theirs.
   */
  settings?(apiKey: string, baseUrl: string): Record<string, unknown>;
}

export interface ProviderTestKit {
  double: FakeProviderHandler;
  conformance: ConformanceFixture;
}

/** Compares as JSON and throws a readable error; fixtures use it without depending on a test runner. */
export function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}
