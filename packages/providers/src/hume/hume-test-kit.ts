// Hume's double and its conformance fixture (loaded lazily by humeProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { humeFake } from './hume-double.js';

export const humeTestKit: ProviderTestKit = {
  double: humeFake,
  conformance: {
    baseInput: { modelId: 'octave-1', voice: 'Ava Song', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['x-hume-api-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v0/tts/stream/file', 'path');
      const utterances = (recorded.body as { utterances: Array<{ voice: unknown }> }).utterances;
      expectEqual(utterances[0]?.voice, { name: voice, provider: 'HUME_AI' }, 'utterance voice');
    },
    clientRefusals: [
      { description: 'unknown voice (404 in Hume\'s error object)', overrides: { voice: 'Nobody At All' }, field: 'voice' },
    ],
  },
};
