// OpenAI's double and its conformance fixture (loaded lazily by openAIProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { openAIFake } from './openai-double.js';

export const openAITestKit: ProviderTestKit = {
  double: openAIFake,
  conformance: {
    baseInput: { modelId: 'tts-1', voice: 'alloy', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['authorization', `Bearer ${apiKey}`],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/v1/audio/speech', 'path');
      expectEqual((recorded.body as Record<string, unknown>).voice, voice.startsWith('voice_') ? { id: voice } : voice, 'body voice');
    },
    clientRefusals: [
      { description: 'unknown voice (400, param voice)', overrides: { voice: 'robot' }, field: 'voice' },
      { description: 'unknown model (404 model_not_found)', overrides: { modelId: 'tts-9' }, field: 'model' },
      {
        description: 'instructions over 4096 characters (400, param instructions)',
        overrides: { modelId: 'gpt-4o-mini-tts', instructions: 'x'.repeat(5000) },
        field: 'instructions',
      },
    ],
  },
};
