// Rime's double and its conformance fixture (loaded lazily by rimeProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { rimeFake } from './rime-double.js';

export const rimeTestKit: ProviderTestKit = {
  double: rimeFake,
  conformance: {
    baseInput: { modelId: 'arcana', voice: 'luna', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/rime-tts', 'path');
      expectEqual((recorded.body as Record<string, unknown>).speaker, voice, 'body speaker');
    },
    clientRefusals: [
      { description: 'unknown speaker (400)', overrides: { voice: 'nobody' }, field: undefined },
      { description: 'unknown model (400)', overrides: { modelId: 'mistv9' }, field: undefined },
    ],
  },
};
