// Settings declared once per module: environment shape, mapping onto per-provider settings, clashes refused.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerModules } from '../provider-list.js';
import { apiKeySettings, providerSettingsFromEnvironment, settingsEnvironmentShape, type SettingsSpec } from './provider-settings.js';

describe('provider settings', () => {
  it('names generic settings <ID>_API_KEY and <ID>_BASE_URL', () => {
    const spec = apiKeySettings('fish-audio', 'bare origin');
    expect([spec.apiKey.env, spec.baseUrl.env]).toEqual(['FISH_AUDIO_API_KEY', 'FISH_AUDIO_BASE_URL']);
    expect(spec.apiKey.secret).toBe(true);
  });

  it('builds one environment schema from every listed module and maps it back per provider', () => {
    const shape = settingsEnvironmentShape(providerModules);
    for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'ELEVENLABS_API_KEY', 'CARTESIA_BASE_URL', 'LOCAL_TTS_WORKERS']) {
      expect(shape).toHaveProperty(name);
    }
    const environment = z.object(shape).parse({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' });
    const settings = providerSettingsFromEnvironment(providerModules, environment);
    expect(settings.openai).toEqual({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/v1' });
    expect(settings.local).toEqual({ workers: 1, maxQueued: 32 });
  });

  it('refuses two modules that declare the same variable', () => {
    const clash: Array<{ id: string; settings: SettingsSpec }> = [
      { id: 'a', settings: { apiKey: { env: 'SHARED_KEY', schema: z.string().optional(), description: 'a' } } },
      { id: 'b', settings: { token: { env: 'SHARED_KEY', schema: z.string().optional(), description: 'b' } } },
    ];
    expect(() => settingsEnvironmentShape(clash)).toThrow('SHARED_KEY is declared by both a and b');
  });
});
