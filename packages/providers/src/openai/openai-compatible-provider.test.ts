// An OpenAI-compatible provider built from settings, end to end against the fake.

import { startFakeProvider } from '../testing/index.js';
import { describe, expect, it } from 'vitest';
import { ConnectionPools } from '../http/connection-pools.js';
import { collect, openAIInput } from '../__fixtures__/speech-helpers.js';
import { openAIDescriptor } from './openai-catalog.js';
import { defineOpenAICompatibleProvider } from './openai-compatible-provider.js';

describe('defineOpenAICompatibleProvider', () => {
  it('produces a working provider module from a catalog and a few settings', async () => {
    const fake = await startFakeProvider('openai');
    const pools = new ConnectionPools();
    try {
      const module = defineOpenAICompatibleProvider({
        id: 'example',
        defaultBaseUrl: 'https://speech.example.com',
        descriptor: { ...openAIDescriptor, id: 'example', name: 'Example' },
        settings: { speedRange: [0.5, 2] },
      });
      expect(module.isConfigured({})).toBe(false);
      expect(module.isConfigured({ apiKey: 'k' })).toBe(true);
      const adapter = module.create({ apiKey: fake.apiKey, baseUrl: fake.baseUrl }, { attemptTimeoutMs: 1000, pools });
      const result = await adapter.synthesize(openAIInput({ speed: 3 }), { signal: new AbortController().signal });
      expect(result.warnings).toEqual(['speed clamped to 2: example accepts 0.5 to 2']);
      expect((await collect(result.audio)).length).toBeGreaterThan(0);
      expect(fake.requests[0]!.body).toMatchObject({ speed: 2, model: 'tts-1' });
    } finally {
      await pools.close();
      await fake.close();
    }
  });
});
