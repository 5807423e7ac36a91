// Resemble's double and its conformance fixture (loaded lazily by resembleProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { RESEMBLE_FAKE_MOUNT, resembleFake } from './resemble-double.js';

export const resembleTestKit: ProviderTestKit = {
  double: resembleFake,
  conformance: {
    baseInput: { modelId: 'chatterbox-turbo', voice: '55592656', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, `${RESEMBLE_FAKE_MOUNT}/stream`, 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice_uuid, voice, 'body voice_uuid');
    },
    clientRefusals: [
      { description: 'unknown voice (404 {success: false})', overrides: { voice: '00000000' }, field: 'voice' },
      { description: 'unknown model (400)', overrides: { modelId: 'chatterbox-9' }, field: undefined },
    ],
    // The double's base URL is the synthesis server; the management API sits under /api as in Resemble's hosts.
    settings: (apiKey, baseUrl) => ({ apiKey, synthesisUrl: baseUrl, baseUrl: `${baseUrl}/api` }),
  },
};
