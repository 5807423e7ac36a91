// Inworld's double and its conformance fixture (loaded lazily by inworldProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { inworldFake } from './inworld-double.js';

export const inworldTestKit: ProviderTestKit = {
  double: inworldFake,
  conformance: {
    baseInput: { modelId: 'inworld-tts-1.5-mini', voice: 'Ashley', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Basic ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/tts/v1/voice:stream', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voiceId, voice, 'body voiceId');
    },
    clientRefusals: [
      { description: 'unknown voice (404, gRPC NOT_FOUND)', overrides: { voice: 'Nobody' }, field: 'voice' },
      { description: 'unknown model (400, gRPC INVALID_ARGUMENT)', overrides: { modelId: 'inworld-tts-9' }, field: undefined },
    ],
  },
};
