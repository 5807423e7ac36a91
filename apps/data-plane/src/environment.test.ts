// The provider part of the data plane's environment, as the standalone and the embedded process parse it.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigurationError } from '@voice-router/service-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { providerEnvironmentShape, providerSettings } from './environment.js';

const parse = (environment: Record<string, string>) => providerSettings(z.object(providerEnvironmentShape).parse(environment), environment);

describe('provider settings', () => {
  it('defaults the circuit breaker to 5 failures and a 30 s cooldown', () => {
    expect(parse({}).breaker).toEqual({ failureThreshold: 5, cooldownMs: 30_000 });
  });

  it('passes BREAKER_FAILURE_THRESHOLD and BREAKER_COOLDOWN_MS to the registry', () => {
    expect(parse({ BREAKER_FAILURE_THRESHOLD: '3', BREAKER_COOLDOWN_MS: '1500' }).breaker).toEqual({ failureThreshold: 3, cooldownMs: 1500 });
  });

  it.each([
    ['BREAKER_FAILURE_THRESHOLD', '0'],
    ['BREAKER_FAILURE_THRESHOLD', '2.5'],
    ['BREAKER_COOLDOWN_MS', '10'],
    ['BREAKER_COOLDOWN_MS', 'soon'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => parse({ [name]: value })).toThrow();
  });

  it('passes provider base URLs through as the SDKs take them (OpenAI with /v1, trailing slash allowed)', () => {
    const settings = parse({ OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1/', ELEVENLABS_BASE_URL: 'https://api.elevenlabs.io' });
    expect(settings.providers.openai).toEqual({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9/v1/' });
    expect(settings.providers.elevenlabs!.baseUrl).toBe('https://api.elevenlabs.io');
  });

  it('reads every listed provider generically, with the local defaults', () => {
    const settings = parse({ CARTESIA_API_KEY: 'c', LOCAL_TTS_WORKERS: '2' });
    expect(settings.providers.cartesia).toEqual({ apiKey: 'c', baseUrl: undefined });
    expect(settings.providers.local).toEqual({ workers: 2, maxQueued: 32, idleTimeoutMs: 300_000 });
  });

  it('refuses a provider base URL that is not http(s)', () => {
    expect(() => parse({ ELEVENLABS_BASE_URL: 'ftp://example.com' })).toThrow();
  });

  it('reads price overrides from PRICING_FILE or PRICING_JSON', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'prices-')), 'prices.json');
    writeFileSync(file, '{"openai/tts-1": {"microsPerUnit": 16}}');
    expect(parse({ PRICING_FILE: file }).pricing).toEqual({ 'openai/tts-1': { unit: 'character', microsPerUnit: 16 } });
    expect(parse({ PRICING_JSON: '{"cartesia/sonic-3": {"microsPerUnit": 40}}' }).pricing).toEqual({ 'cartesia/sonic-3': { unit: 'character', microsPerUnit: 40 } });
    expect(parse({}).pricing).toBeUndefined();
  });

  it.each([
    [{ PRICING_FILE: '/nonexistent/prices.json' }, 'PRICING_FILE /nonexistent/prices.json: cannot be read (ENOENT)'],
    [{ PRICING_JSON: '{"openai/tts-1": {"microsPerUnit": -5}}' }, 'PRICING_JSON: openai/tts-1.microsPerUnit'],
    [{ PRICING_JSON: '{"openai/tts-9": {"microsPerUnit": 5}}' }, 'openai/tts-9'],
    [{ PRICING_JSON: '{}', PRICING_FILE: '/x' }, 'both set'],
  ])('refuses to start with bad prices: %j', (environment, message) => {
    expect(() => parse(environment)).toThrow(ConfigurationError);
    expect(() => parse(environment)).toThrow(message);
  });
});

describe('OpenAI-compatible hosts (OPENAI_COMPATIBLE_*)', () => {
  const acme = {
    OPENAI_COMPATIBLE_ACME_BASE_URL: 'https://speech.acme.example/v1',
    OPENAI_COMPATIBLE_ACME_API_KEY: 'acme-key',
    OPENAI_COMPATIBLE_ACME_MODELS: 'tts-1=15',
  };

  it('adds each declared host to the registry\'s modules and settings, after the built-in providers', () => {
    const settings = parse(acme);
    expect(settings.modules.map((module) => module.id).at(-1)).toBe('acme');
    expect(settings.modules.length).toBe(parse({}).modules.length + 1);
    expect(settings.providers.acme).toEqual({ apiKey: 'acme-key', baseUrl: 'https://speech.acme.example/v1' });
  });

  it('lets PRICING_JSON override a host\'s price and still refuses models nobody lists', () => {
    expect(parse({ ...acme, PRICING_JSON: '{"acme/tts-1": {"microsPerUnit": 12}}' }).pricing).toEqual({ 'acme/tts-1': { unit: 'character', microsPerUnit: 12 } });
    expect(() => parse({ ...acme, PRICING_JSON: '{"acme/tts-9": {"microsPerUnit": 12}}' })).toThrow('acme/tts-9');
  });

  it('refuses a bad declaration at start with a ConfigurationError naming the variable', () => {
    const error = (() => {
      try {
        parse({ OPENAI_COMPATIBLE_ACME_BASE_URL: 'https://speech.acme.example/v1' });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toContain('OPENAI_COMPATIBLE_ACME_MODELS is required');
    expect(() => parse({ ...acme, OPENAI_COMPATIBLE_ELEVENLABS_BASE_URL: 'https://x/v1', OPENAI_COMPATIBLE_ELEVENLABS_MODELS: 'm=1' })).toThrow(
      "the id elevenlabs is a built-in provider's",
    );
  });
});
