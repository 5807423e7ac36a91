// Murf's double and its conformance fixture (loaded lazily by murfProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { murfFake } from './murf-double.js';

export const murfTestKit: ProviderTestKit = {
  double: murfFake,
  conformance: {
    baseInput: { modelId: 'FALCON', voice: 'en-US-natalie', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['api-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/speech/stream', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voiceId, voice, 'body voiceId');
    },
    clientRefusals: [
      // Murf answers 400 with a message only; the router cannot tell which field without reading it.
      { description: 'unknown voice (400)', overrides: { voice: 'en-US-nobody' }, field: undefined },
      { description: 'unknown model (400)', overrides: { modelId: 'GEN9' }, field: undefined },
    ],
  },
};
