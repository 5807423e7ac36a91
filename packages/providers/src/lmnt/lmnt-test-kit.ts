// LMNT's double and its conformance fixture (loaded lazily by lmntProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { lmntFake } from './lmnt-double.js';

export const lmntTestKit: ProviderTestKit = {
  double: lmntFake,
  conformance: {
    baseInput: { modelId: 'blizzard', voice: 'leah', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['x-api-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/ai/speech/bytes', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice, voice, 'body voice');
    },
    clientRefusals: [
      { description: 'unknown voice (404 not_found_error)', overrides: { voice: 'no-such-voice' }, field: 'voice' },
      { description: 'unknown model (400 invalid_request_error)', overrides: { modelId: 'aurora-9' }, field: undefined },
    ],
  },
};
