// Groq's double and its conformance fixture (loaded lazily by groqProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { groqFake } from './groq-double.js';

export const groqTestKit: ProviderTestKit = {
  double: groqFake,
  conformance: {
    baseInput: { modelId: 'canopylabs/orpheus-v1-english', voice: 'autumn', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/openai/v1/audio/speech', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice, voice, 'body voice');
    },
    // Orpheus takes at most 200 characters: the longest text that fits still streams for seconds of audio.
    longText: 'This sentence keeps the stream going for a while. '.repeat(4),
    clientRefusals: [
      // Unknown voices of known models are refused before sending (groq-speech-model.ts), so none reaches Groq.
      { description: 'unknown model (404 model_not_found)', overrides: { modelId: 'canopylabs/orpheus-v9' }, field: 'model' },
    ],
  },
};
