// Azure's double and its conformance fixture (loaded lazily by azureProvider.testKit()).

import { expectEqual, type ProviderTestKit } from '../testing/test-kit.js';
import { azureFake } from './azure-double.js';
import { elementsNamed, parseXml } from './azure-ssml-reader.js';

export const azureTestKit: ProviderTestKit = {
  double: azureFake,
  conformance: {
    baseInput: { modelId: 'neural', voice: 'en-US-JennyNeural', text: 'Hello from the conformance suite.', providerOptions: {} },
    authHeader: (apiKey) => ['ocp-apim-subscription-key', apiKey],
    expectVoicePlacement(recorded, voice) {
      expectEqual(recorded.path, '/cognitiveservices/v1', 'path');
      const voices = elementsNamed(parseXml(String(recorded.body)), 'voice');
      expectEqual(voices.map((element) => element.attributes.name), [voice], 'SSML voice names');
    },
    clientRefusals: [
      { description: 'unknown voice (400 with an empty body)', overrides: { voice: 'en-US-NobodyNeural' }, field: 'voice' },
    ],
    settings: (apiKey, baseUrl) => ({ apiKey, baseUrl }),
  },
};
