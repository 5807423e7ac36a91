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
    expect(settings.local).toEqual({ workers: 1, maxQueued: 32, idleTimeoutMs: 300_000 });
  });

  it("keeps every provider's variable names as operators already set them (issue 10's list, ecosystems' own names)", () => {
    const generic = (prefix: string) => [`${prefix}_API_KEY`, `${prefix}_BASE_URL`];
    const expected: Record<string, string[]> = {
      openai: generic('OPENAI'), elevenlabs: generic('ELEVENLABS'), cartesia: generic('CARTESIA'),
      local: ['LOCAL_TTS_WORKERS', 'LOCAL_TTS_MAX_QUEUE', 'LOCAL_TTS_IDLE_MS'],
      deepgram: generic('DEEPGRAM'), hume: generic('HUME'), lmnt: generic('LMNT'), rime: generic('RIME'),
      inworld: generic('INWORLD'), fish: generic('FISH'), minimax: generic('MINIMAX'), murf: generic('MURF'),
      speechify: generic('SPEECHIFY'), neuphonic: generic('NEUPHONIC'), smallest: generic('SMALLEST'), groq: generic('GROQ'),
      // The management API and the synthesis host are separate, as in the SDK's setBaseUrl / setSynthesisUrl.
      resemble: [...generic('RESEMBLE'), 'RESEMBLE_SYNTHESIS_URL'],
      polly: ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_REGION', 'AWS_ENDPOINT_URL_POLLY'],
      azure: ['AZURE_SPEECH_KEY', 'AZURE_SPEECH_REGION', 'AZURE_BASE_URL'],
      google: ['GOOGLE_API_KEY', 'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_BASE_URL'],
    };
    const actual = Object.fromEntries(providerModules.map((module) => [module.id, Object.values(module.settings).map((setting) => setting.env)]));
    expect(actual).toEqual(expected);
  });

  it('refuses two modules that declare the same variable', () => {
    const clash: Array<{ id: string; settings: SettingsSpec }> = [
      { id: 'a', settings: { apiKey: { env: 'SHARED_KEY', schema: z.string().optional(), description: 'a' } } },
      { id: 'b', settings: { token: { env: 'SHARED_KEY', schema: z.string().optional(), description: 'b' } } },
    ];
    expect(() => settingsEnvironmentShape(clash)).toThrow('SHARED_KEY is declared by both a and b');
  });
});
