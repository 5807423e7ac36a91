// Registry retries, deadlines, cancellation and listing, against the OpenAI fake.

import { startFakeProvider, type FakeProviderServer } from './testing/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError, ProviderError, ProviderUnavailableError, UpstreamInvalidRequestError } from './errors.js';
import { openAIProvider } from './openai/index.js';
import { providerModules } from './provider-list.js';
import { createProviderRegistry, type ProviderRegistry, type ProviderRegistryConfig } from './registry.js';
import { collect, openAIInput, rejectionOf } from './__fixtures__/speech-helpers.js';

let fake: FakeProviderServer;
let registry: ProviderRegistry;

async function setUp(fakeOptions: Parameters<typeof startFakeProvider>[1] = {}, config: Partial<ProviderRegistryConfig> = {}) {
  fake = await startFakeProvider('openai', fakeOptions);
  registry = createProviderRegistry(
    { attemptTimeoutMs: 1000, maxAttempts: 3, backoffBaseMs: 5, providers: { openai: { apiKey: fake.apiKey, baseUrl: fake.baseUrl } }, ...config },
    [openAIProvider],
  );
}

const synthesize = (signal = new AbortController().signal) => registry.synthesize('openai', openAIInput(), { signal });

afterEach(async () => {
  await registry?.close();
  await fake?.close();
});

describe('registry retries', () => {
  it.each([500, 503, 429, 408])('retries %i and succeeds', async (status) => {
    await setUp();
    fake.setBehavior({ status, times: 2 });
    const result = await synthesize();
    expect((await collect(result.audio)).length).toBeGreaterThan(0);
    expect(fake.requests.map((request) => request.status)).toEqual([status, status, 200]);
  });

  it.each([
    [401, 'upstream_auth_failed'],
    [403, 'upstream_auth_failed'],
    [402, 'upstream_quota_exceeded'],
    [404, 'upstream_rejected_request'],
  ])('does not retry %i (%s)', async (status, category) => {
    await setUp();
    fake.setBehavior({ status });
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ statusCode: status, category, isRetryable: false, kind: 'http', attempts: 1 });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry a client refusal and reports it as an invalid request, not an upstream failure', async () => {
    await setUp();
    const error = await rejectionOf(registry.synthesize('openai', openAIInput({ voice: 'robot' }), { signal: new AbortController().signal }));
    expect(error).toBeInstanceOf(UpstreamInvalidRequestError);
    expect(error).toMatchObject({ field: 'voice', statusCode: 400 });
    expect(fake.requests).toHaveLength(1);
  });

  it('does not retry a real authentication failure and keeps the key out of the error', async () => {
    await setUp();
    await registry.close();
    registry = createProviderRegistry(
      { attemptTimeoutMs: 1000, maxAttempts: 3, providers: { openai: { apiKey: 'sk-wrong-0000-LEAKCHECK', baseUrl: fake.baseUrl } } },
      [openAIProvider],
    );
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ statusCode: 401, category: 'upstream_auth_failed', isRetryable: false });
    expect(JSON.stringify({ ...error, message: error.message, stack: error.stack })).not.toMatch(/LEAKCHECK|sk-wrong|upstream-body-marker/);
  });

  it('gives up after maxAttempts with the last error', async () => {
    await setUp();
    fake.setBehavior({ status: 500 });
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ statusCode: 500, isRetryable: true, attempts: 3 });
    expect(fake.requests).toHaveLength(3);
  });
});

describe('registry deadlines', () => {
  it('times out an upstream that never answers, retries, and reports kind timeout after exhaustion', async () => {
    await setUp({}, { attemptTimeoutMs: 150, maxAttempts: 2 });
    fake.setBehavior({ hang: true });
    const started = Date.now();
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ kind: 'timeout', category: 'upstream_timeout', statusCode: null, isRetryable: true, attempts: 2 });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.requests).toHaveLength(2);
    // Each timed-out attempt closed its upstream connection.
    for (const request of fake.requests) expect(await fake.waitForOutcome(request)).toBe('aborted');
  });

  it('times out when headers arrive but the first audio byte does not', async () => {
    await setUp({ firstByteDelayMs: 400 }, { attemptTimeoutMs: 100, maxAttempts: 1 });
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ kind: 'timeout', attempts: 1 });
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
  });

  it('does not time out a slow stream once the first byte arrived', async () => {
    await setUp({ chunkBytes: 2000, chunkIntervalMs: 40, totalBytes: 20_000 }, { attemptTimeoutMs: 100 });
    const result = await synthesize();
    expect((await collect(result.audio)).length).toBe(20_000);
  });
});

describe('registry after the first byte', () => {
  it('never retries once audio flowed: a mid-stream failure surfaces while iterating', async () => {
    await setUp({ chunkBytes: 1000, chunkIntervalMs: 5, totalBytes: 50_000 });
    fake.setBehavior({ dieAfterBytes: 4000 });
    const result = await synthesize();
    const error = (await rejectionOf(collect(result.audio))) as ProviderError;
    expect(error).toBeInstanceOf(ProviderError);
    expect(error.kind).toBe('network');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a connection that dies before any audio byte', async () => {
    await setUp({}, { maxAttempts: 2 });
    fake.setBehavior({ dieAfterBytes: 0 });
    const error = (await rejectionOf(synthesize())) as ProviderError;
    expect(error).toMatchObject({ kind: 'network', attempts: 2 });
    expect(fake.requests).toHaveLength(2);
  });
});

describe('registry cancellation', () => {
  it('propagates an abort before the first byte and closes the upstream connection', async () => {
    await setUp();
    fake.setBehavior({ hang: true });
    const controller = new AbortController();
    const pending = synthesize(controller.signal);
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = (await rejectionOf(pending)) as Error;
    expect(error.name).toBe('AbortError');
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
    expect(fake.requests).toHaveLength(1);
  });

  it('stops retrying when aborted during backoff', async () => {
    await setUp({}, { backoffBaseMs: 2000 });
    fake.setBehavior({ status: 500 });
    const controller = new AbortController();
    const pending = synthesize(controller.signal);
    while (fake.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setTimeout(resolve, 20));
    controller.abort();
    expect(((await rejectionOf(pending)) as Error).name).toBe('AbortError');
    expect(fake.requests).toHaveLength(1);
  });

  it('aborting mid-stream ends iteration with the abort reason and closes the upstream connection', async () => {
    await setUp({ chunkBytes: 1000, chunkIntervalMs: 10, totalBytes: 500_000 });
    const controller = new AbortController();
    const result = await synthesize(controller.signal);
    const iterator = result.audio[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    controller.abort();
    expect(((await rejectionOf(iterator.next())) as Error).name).toBe('AbortError');
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
  });

  it('breaking out of the loop closes the upstream connection', async () => {
    await setUp({ chunkBytes: 1000, chunkIntervalMs: 10, totalBytes: 500_000 });
    const result = await synthesize();
    for await (const _chunk of result.audio) break;
    expect(await fake.waitForOutcome(fake.requests[0]!)).toBe('aborted');
    expect(fake.requests[0]!.audioBytesSent).toBeLessThan(500_000);
  });
});

describe('registry listing', () => {
  it('lists unconfigured providers as unavailable with a reason and refuses to synthesize with them', async () => {
    await setUp();
    const bare = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 }, [openAIProvider]);
    expect(bare.status()).toEqual([{ id: 'openai', state: 'unavailable', reason: 'missing_api_key' }]);
    expect(bare.isAvailable('openai')).toBe(false);
    expect(bare.descriptor('openai')?.models.map((model) => model.id)).toContain('tts-1');
    const error = await rejectionOf(bare.synthesize('openai', openAIInput(), { signal: new AbortController().signal }));
    expect(error).toBeInstanceOf(ProviderUnavailableError);
    expect(await rejectionOf(bare.synthesize('nope', openAIInput(), { signal: new AbortController().signal }))).toMatchObject({
      reason: 'unknown_provider',
    });
    await bare.close();
  });

  it('reports configured providers as available', async () => {
    await setUp();
    expect(registry.status()).toEqual([{ id: 'openai', state: 'available' }]);
    expect(registry.list().map((descriptor) => descriptor.id)).toEqual(['openai']);
    expect(registry.descriptor('missing')).toBeUndefined();
  });

  it('validates its configuration', () => {
    expect(() => createProviderRegistry({ attemptTimeoutMs: 0, maxAttempts: 1 }, [])).toThrow(RangeError);
    expect(() => createProviderRegistry({ attemptTimeoutMs: 10, maxAttempts: 0 }, [])).toThrow(RangeError);
  });
});

describe('registry with the default provider list', () => {
  it('lists every provider, keeps keyless HTTP providers unavailable and the local one available', async () => {
    const defaults = createProviderRegistry({ attemptTimeoutMs: 15_000, maxAttempts: 2 });
    try {
      // Derived from the list, so adding a provider (one line in provider-list.ts) does not edit this test.
      expect(defaults.status()).toEqual(
        providerModules.map((module) =>
          module.id === 'local' ? { id: 'local', state: 'available' } : { id: module.id, state: 'unavailable', reason: 'missing_api_key' },
        ),
      );
      expect(defaults.status().slice(0, 4).map((entry) => entry.id)).toEqual(['openai', 'elevenlabs', 'cartesia', 'local']);
      // The spec types lastSmokeTest as a string: a time, or "never" until a smoke synthesis succeeded.
      for (const descriptor of defaults.list()) expect(descriptor.capabilities.lastSmokeTest).toBe('never');
      const local = defaults.descriptor('local')!;
      expect(local.voices.length).toBeGreaterThan(0);
      expect(local.models).toMatchObject([{ id: 'espeak-ng', pricing: { unit: 'character', microsPerUnit: 0 } }]);
      const result = await defaults.synthesize(
        'local',
        { modelId: 'espeak-ng', voice: local.voices[0]!.id, text: 'Local speech works.', format: 'pcm', speed: 1.2, instructions: 'x', providerOptions: {} },
        { signal: new AbortController().signal },
      );
      expect(result.warnings).toEqual(['instructions ignored: not supported by local']);
      expect((await collect(result.audio)).length % 2).toBe(0);
    } finally {
      await defaults.close();
    }
  });
});

describe('every listed provider in /v1/providers', () => {
  it('has models with both formats and a price, capabilities, quirks, an mp3 quality and declared options', () => {
    const defaults = createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1 });
    try {
      expect(defaults.list().map((descriptor) => descriptor.id)).toEqual(providerModules.map((module) => module.id));
      for (const descriptor of defaults.list()) {
        const where = `provider ${descriptor.id}`;
        expect(descriptor.models.length, where).toBeGreaterThan(0);
        for (const model of descriptor.models) {
          expect(model.responseFormats, `${where} model ${model.id}`).toEqual(expect.arrayContaining(['mp3', 'pcm']));
          expect(model.pricing.unit, `${where} model ${model.id}`).toBe('character');
          expect(model.pricing.microsPerUnit, `${where} model ${model.id}`).toBeGreaterThanOrEqual(0);
        }
        expect(descriptor.capabilities.supportedFormats, where).toEqual(expect.arrayContaining(['mp3', 'pcm']));
        expect(Array.isArray(descriptor.capabilities.unwiredCapabilities), where).toBe(true);
        // Every provider approximates something (prices, speed, formats): the quirks say what.
        expect(descriptor.capabilities.quirks.length, where).toBeGreaterThan(0);
        expect(descriptor.mp3Quality, where).toMatch(/\S/);
        expect(Array.isArray(descriptor.providerOptions), where).toBe(true);
        for (const option of descriptor.providerOptions ?? []) expect(option.name, where).toMatch(/^[a-z][a-z0-9_]*$/i);
      }
    } finally {
      void defaults.close();
    }
  });
});

describe('registry trace context', () => {
  it('sends the traceparent it is given on every attempt, and none when it is given none', async () => {
    await setUp();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01';
    fake.setBehavior({ status: 503, times: 1 });
    await collect((await registry.synthesize('openai', openAIInput(), { signal: new AbortController().signal, traceparent })).audio);
    expect(fake.requests.map((request) => request.headers.traceparent)).toEqual([traceparent, traceparent]);
    await collect((await synthesize()).audio);
    expect(fake.requests.at(-1)!.headers).not.toHaveProperty('traceparent');
  });
});

describe('registry catalog: provider_options, mp3 quality and deployment prices', () => {
  it('lists each provider\'s accepted options and mp3 quality, applies price overrides and refuses bad options by key', () => {
    const registry = createProviderRegistry({
      attemptTimeoutMs: 1000,
      maxAttempts: 1,
      pricing: { 'cartesia/sonic-3': { unit: 'character', microsPerUnit: 41 } },
    });
    try {
      const elevenlabs = registry.descriptor('elevenlabs')!;
      expect(elevenlabs.mp3Quality).toContain('mp3_44100_128');
      expect(elevenlabs.providerOptions).toContainEqual(expect.objectContaining({ name: 'output_format', type: 'string' }));
      expect(elevenlabs.providerOptions).toContainEqual(expect.objectContaining({ name: 'stability', type: 'number', minimum: 0, maximum: 1 }));
      expect(registry.descriptor('openai')!.providerOptions).toEqual([]);
      expect(registry.descriptor('cartesia')!.models.find((model) => model.id === 'sonic-3')!.pricing.microsPerUnit).toBe(41);
      expect(registry.descriptor('cartesia')!.models.find((model) => model.id === 'sonic-3.5')!.pricing.microsPerUnit).toBe(38);

      expect(registry.readProviderOptions('elevenlabs', { stability: 0.5, next_text: null })).toEqual({ stability: 0.5 });
      expect(() => registry.readProviderOptions('elevenlabs', { stabilty: 0.5 })).toThrow(InvalidSpeechRequestError);
      expect(() => registry.readProviderOptions('elevenlabs', { stability: 3 })).toThrow('provider option "stability" is invalid');
    } finally {
      void registry.close();
    }
  });

  it('refuses to start with a price for a model no provider lists', () => {
    expect(() =>
      createProviderRegistry({ attemptTimeoutMs: 1000, maxAttempts: 1, pricing: { 'cartesia/sonic-9': { unit: 'character', microsPerUnit: 1 } } }),
    ).toThrow('cartesia/sonic-9');
  });
});
