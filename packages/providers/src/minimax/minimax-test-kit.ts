// MiniMax's double and its conformance fixture (loaded lazily by miniMaxProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { miniMaxFake } from './minimax-double.js';

export const miniMaxTestKit: ProviderTestKit = {
  double: miniMaxFake,
  conformance: {
    baseInput: { modelId: 'speech-2.8-turbo', voice: 'English_expressive_narrator', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/t2a_v2', 'path');
      expectEqual((recorded.body as { voice_setting: { voice_id: string } }).voice_setting.voice_id, voice, 'voice_setting.voice_id');
    },
    clientRefusals: [
      { description: 'unknown voice (HTTP 200, base_resp 20132)', overrides: { voice: 'Nobody_at_all' }, field: 'voice' },
      { description: 'unknown model (HTTP 200, base_resp 2013)', overrides: { modelId: 'speech-9' }, field: undefined },
    ],
  },
};
