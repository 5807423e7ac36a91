// Cartesia's double and its conformance fixture (loaded lazily by cartesiaProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { cartesiaFake } from './cartesia-double.js';

export const cartesiaTestKit: ProviderTestKit = {
  double: cartesiaFake,
  conformance: {
    baseInput: { modelId: 'sonic-3', voice: '694f9389-aac1-45b6-b726-9d9369183238', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/tts/bytes', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice, { id: voice }, 'body voice');
    },
    clientRefusals: [
      { description: 'unknown voice (404 Voice not found)', overrides: { voice: '00000000-0000-0000-0000-000000000000' }, field: 'voice' },
      { description: 'sunset model (400 model_sunsetted)', overrides: { modelId: 'sonic-english' }, field: 'model' },
      { description: 'unknown model (400 without an error code)', overrides: { modelId: 'sonic-9' }, field: undefined },
    ],
  },
};
