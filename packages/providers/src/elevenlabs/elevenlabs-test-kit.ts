// ElevenLabs' double and its conformance fixture (loaded lazily by elevenLabsProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { elevenLabsFake } from './elevenlabs-double.js';

export const elevenLabsTestKit: ProviderTestKit = {
  double: elevenLabsFake,
  conformance: {
    baseInput: { modelId: 'eleven_flash_v2_5', voice: '21m00Tcm4TlvDq8ikWAM', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['xi-api-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      const [pathname, query] = recorded.path.split('?');
      const segments = pathname!.split('/');
      expectEqual(segments.length, 5, 'segment count');
      expectEqual([segments[0], segments[1], segments[2], segments[4]], ['', 'v1', 'text-to-speech', 'stream'], 'route');
      expectEqual(decodeURIComponent(segments[3]!), voice, 'decoded voice segment');
      expectEqual(new URLSearchParams(query).get('output_format') !== null, true, 'output_format present');
    },
    clientRefusals: [
      { description: 'unknown voice (404 voice_not_found)', overrides: { voice: 'no-such-voice' }, field: 'voice' },
      { description: 'unknown model (400 model_not_found)', overrides: { modelId: 'eleven_unknown_v9' }, field: 'model' },
    ],
  },
};
