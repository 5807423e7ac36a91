// Fish Audio's double and its conformance fixture (loaded lazily by fishProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { fishFake } from './fish-double.js';

export const fishTestKit: ProviderTestKit = {
  double: fishFake,
  conformance: {
    baseInput: { modelId: 's2.1-pro', voice: '802e3bc2b27e49c2995d23ef70e6ac89', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/tts', 'path');
      expectEqual((recorded.body as Record<string, unknown>).reference_id, voice, 'body reference_id');
    },
    clientRefusals: [{ description: 'unknown voice model (404 {status, message})', overrides: { voice: '00000000000000000000000000000000' }, field: 'voice' }],
  },
};
