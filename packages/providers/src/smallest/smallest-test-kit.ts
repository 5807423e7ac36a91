// Smallest.ai's double and its conformance fixture (loaded lazily by smallestProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { smallestFake } from './smallest-double.js';

export const smallestTestKit: ProviderTestKit = {
  double: smallestFake,
  conformance: {
    baseInput: { modelId: 'lightning_v3.1', voice: 'magnus', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/waves/v1/tts', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice_id, voice, 'body voice_id');
    },
    clientRefusals: [
      { description: 'unknown voice (400)', overrides: { voice: 'nobody_at_all' }, field: undefined },
      { description: 'unknown model (400)', overrides: { modelId: 'lightning_v9' }, field: undefined },
    ],
  },
};
