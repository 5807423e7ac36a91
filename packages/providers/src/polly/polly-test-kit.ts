// Polly's double and its conformance fixture (loaded lazily by pollyProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { POLLY_FAKE_REGION, POLLY_FAKE_SECRET_ACCESS_KEY, pollyFake } from './polly-double.js';

export const pollyTestKit: ProviderTestKit = {
  double: pollyFake,
  conformance: {
    baseInput: { modelId: 'neural', voice: 'Joanna', text: 'Hello from the conformance suite.', providerOptions: {} },
    // The access key id travels in the SigV4 credential scope; the secret never travels.
    authHeader: (apiKey) => [
      'authorization',
      new RegExp(`^AWS4-HMAC-SHA256 Credential=${apiKey}/\\d{8}/${POLLY_FAKE_REGION}/polly/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$`),
    ],
    // AWS answers an unknown access key id with 403 UnrecognizedClientException.
    wrongKeyStatus: 403,
    settings: (apiKey, baseUrl) => ({ accessKeyId: apiKey, secretAccessKey: POLLY_FAKE_SECRET_ACCESS_KEY, region: POLLY_FAKE_REGION, endpoint: baseUrl }),
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/speech', 'path');
      expectEqual((recorded.body as Record<string, unknown>).VoiceId, voice, 'body VoiceId');
    },
    clientRefusals: [
      { description: 'unknown voice (400 ValidationException)', overrides: { voice: 'Nobody' }, field: undefined },
      { description: 'engine the voice lacks (400 EngineNotSupportedException)', overrides: { voice: 'Brian', modelId: 'generative' }, field: 'model' },
      { description: 'unknown engine (400 ValidationException)', overrides: { modelId: 'turbo' }, field: undefined },
    ],
  },
};
