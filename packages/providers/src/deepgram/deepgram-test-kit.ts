// Deepgram's double and its conformance fixture (loaded lazily by deepgramProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { deepgramFake } from './deepgram-double.js';

export const deepgramTestKit: ProviderTestKit = {
  double: deepgramFake,
  conformance: {
    baseInput: { modelId: 'aura-2', voice: 'thalia-en', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Token ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      const url = new URL(recorded.path, 'http://double');
      expectEqual(url.pathname, '/v1/speak', 'path');
      expectEqual(url.searchParams.get('model'), `aura-2-${voice}`, 'query model');
    },
    clientRefusals: [
      // The voice is part of the upstream model name: an unknown one is Deepgram's 400 unknown model.
      { description: 'unknown voice (400 unknown model)', overrides: { voice: 'nobody-en' }, field: undefined },
      { description: 'unknown model generation (400 unknown model)', overrides: { modelId: 'aura-9' }, field: undefined },
    ],
  },
};
