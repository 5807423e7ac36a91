// Google's double and its conformance fixture (loaded lazily by googleProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { googleFake } from './google-double.js';

export const googleTestKit: ProviderTestKit = {
  double: googleFake,
  conformance: {
    baseInput: { modelId: 'neural2', voice: 'en-US-Neural2-F', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['x-goog-api-key', apiKey],
    // Google answers a wrong API key with 400 INVALID_ARGUMENT, reason API_KEY_INVALID.
    wrongKeyStatus: 400,
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/text:synthesize', 'path');
      expectEqual((recorded.body as { voice?: { name?: string } }).voice?.name, voice, 'body voice.name');
    },
    clientRefusals: [
      { description: 'unknown voice (400 INVALID_ARGUMENT)', overrides: { voice: 'en-US-Neural2-Z' }, field: undefined },
      { description: 'voice and language_code that do not match', overrides: { providerOptions: { language_code: 'de-DE' } }, field: undefined },
    ],
    settings: (apiKey, baseUrl) => ({ apiKey, baseUrl }),
  },
};
