// Speechify's double and its conformance fixture (loaded lazily by speechifyProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { SPEECHIFY_FAKE_MOUNT, speechifyFake } from './speechify-double.js';

export const speechifyTestKit: ProviderTestKit = {
  double: speechifyFake,
  conformance: {
    baseInput: { modelId: 'simba-english', voice: 'george', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, `${SPEECHIFY_FAKE_MOUNT}/v1/audio/stream`, 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice_id, voice, 'body voice_id');
    },
    clientRefusals: [
      { description: 'unknown voice (404 in Speechify\'s {error} body)', overrides: { voice: 'nobody_at_all' }, field: 'voice' },
      { description: 'unknown model (400)', overrides: { modelId: 'simba-9' }, field: undefined },
    ],
  },
};
