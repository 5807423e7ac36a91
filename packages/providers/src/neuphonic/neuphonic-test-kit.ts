// Neuphonic's double and its conformance fixture (loaded lazily by neuphonicProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { NEUPHONIC_FAKE_MOUNT, neuphonicFake } from './neuphonic-double.js';

export const neuphonicTestKit: ProviderTestKit = {
  double: neuphonicFake,
  conformance: {
    baseInput: { modelId: 'default', voice: 'eeb488b8-d532-4235-aa57-f070cfc44750', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['x-api-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, `${NEUPHONIC_FAKE_MOUNT}/sse/speak/en`, 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice_id, voice, 'body voice_id');
    },
    clientRefusals: [{ description: 'unsupported language (422 validation)', overrides: { providerOptions: { lang_code: 'xx' } }, field: undefined }],
  },
};
