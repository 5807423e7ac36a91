// The suite every adapter must pass: real audio in the requested format, error mapping without leaks,
// cancellation that reaches upstream, voices that cannot escape their path, keys only where they belong.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CircuitOpenError, InvalidSpeechRequestError, ProviderError, UpstreamInvalidRequestError } from '../errors.js';
import { VoiceListingError } from '../catalog/voice-listing.js';
import { providerModules } from '../provider-list.js';
import type { SpeechAdapter } from '../types.js';
import {
  ATTEMPT_TIMEOUT_MS,
  loadHttpConformanceCases,
  PATH_INJECTION_VOICES,
  STATUS_CATEGORIES,
  type ConformanceTarget,
} from '../__fixtures__/conformance-cases.js';
import { announceSkip, parseMp3Frames } from '@voice-router/test-support';
import { collect, probeMp3, rejectionOf, startsWithMp3FrameSync } from '../__fixtures__/speech-helpers.js';

// About 1,650 characters: long enough to stream for seconds, under the smallest per-request limit (Deepgram's 2,000).
const LONG_TEXT = 'This sentence keeps the stream going for a long while. '.repeat(30);
const signal = () => new AbortController().signal;

/**
 * Speech lasts roughly as long as its text: real voices at speed 1 read about 10 to 20 characters a second, and
 * every double answers at a comparable rate. A window of 6 to 30 catches truncated, repeated or mis-rated audio
 * (pcm taken at the wrong sample rate is off by a factor of 1.5 or more) without tying the suite to one double.
 */
function expectPlausibleDuration(seconds: number, text: string): void {
  const characters = [...text].length;
  expect(seconds).toBeGreaterThanOrEqual(characters / 30);
  expect(seconds).toBeLessThanOrEqual(characters / 6);
}

/** Everything a thrown error exposes: message, stack and own fields. */
function exposedText(error: unknown): string {
  const record = error as Record<string, unknown>;
  return JSON.stringify({ ...record, message: (error as Error).message, stack: (error as Error).stack });
}

function audioConformance(getTarget: () => ConformanceTarget) {
  it('returns whole-frame mono MP3 at the declared rate, of a plausible duration (and ffprobe agrees when present)', async () => {
    const target = getTarget();
    const input = target.input('mp3');
    const result = await target.adapter.synthesize(input, { signal: signal() });
    expect(Array.isArray(result.warnings)).toBe(true);
    const bytes = await collect(result.audio);
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    // Walked frame by frame here whether or not ffprobe is installed: whole frames, mono, the declared rate.
    const frames = parseMp3Frames(bytes);
    expect(frames).toMatchObject({ sampleRate: target.mp3SampleRate ?? 24000, channels: 1, trailingBytes: 0 });
    expectPlausibleDuration(frames.durationSeconds, input.text);
    const probe = await probeMp3(bytes);
    if (probe) {
      expect(probe).toMatchObject({ codec: 'mp3', sampleRate: target.mp3SampleRate ?? 24000, channels: 1 });
      expectPlausibleDuration(probe.durationSeconds, input.text);
    } else announceSkip('the ffprobe decoding checks of the conformance suite', 'ffprobe is not installed (Debian package ffmpeg)');
  });

  it('returns PCM of even length and a plausible duration (s16le 24 kHz mono when ffprobe is present)', async () => {
    const target = getTarget();
    const input = target.input('pcm');
    const bytes = await collect((await target.adapter.synthesize(input, { signal: signal() })).audio);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.length % 2).toBe(0);
    // pcm has no header: its duration is its length at the spec's 24 kHz, 2 bytes a sample.
    expectPlausibleDuration(bytes.length / 48_000, input.text);
    // Decoded as the spec's pcm (s16le, 24 kHz, mono) by ffprobe when it is installed.
    const probe = await probeMp3(bytes, 'pcm');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: 24000, channels: 1 });
    else announceSkip('the ffprobe decoding checks of the conformance suite', 'ffprobe is not installed (Debian package ffmpeg)');
  });

  it('aborting mid-stream rejects iteration with the abort reason and stops the stream', async () => {
    const target = getTarget();
    const controller = new AbortController();
    const result = await target.adapter.synthesize(target.input('pcm', { text: target.longText ?? LONG_TEXT }), { signal: controller.signal });
    const iterator = result.audio[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    controller.abort();
    expect(((await rejectionOf(iterator.next())) as Error).name).toBe('AbortError');
    expect((await iterator.next()).done).toBe(true);
    if (target.fake) expect(await target.fake.waitForOutcome(target.fake.requests.at(-1)!)).toBe('aborted');
  });

  it('breaking out of the loop cancels upstream', async () => {
    const target = getTarget();
    const result = await target.adapter.synthesize(target.input('mp3', { text: target.longText ?? LONG_TEXT }), { signal: signal() });
    let chunks = 0;
    for await (const _chunk of result.audio) if (++chunks === 2) break;
    expect(chunks).toBe(2);
    if (target.fake) expect(await target.fake.waitForOutcome(target.fake.requests.at(-1)!)).toBe('aborted');
  });

  it('rejects at once when the signal is already aborted', async () => {
    const target = getTarget();
    const controller = new AbortController();
    controller.abort();
    expect(((await rejectionOf(target.adapter.synthesize(target.input('pcm'), { signal: controller.signal }))) as Error).name).toBe(
      'AbortError',
    );
  });
}

const httpConformanceCases = await loadHttpConformanceCases();

it('runs every listed provider: each HTTP one against its double (plus a settings-only OpenAI-compatible host), local below', () => {
  // A module without a test kit would silently drop out of the loop below: only the local synthesizer may.
  expect(providerModules.filter((module) => !module.testKit).map((module) => module.id)).toEqual(['local']);
  expect(httpConformanceCases.map((candidate) => candidate.name)).toEqual([
    ...providerModules.filter((module) => module.testKit).map((module) => module.id),
    'acme-speech',
  ]);
});

for (const conformanceCase of httpConformanceCases) {
  describe(`adapter conformance: ${conformanceCase.name} (against its fake)`, () => {
    let target: ConformanceTarget;
    beforeAll(async () => {
      target = await conformanceCase.setUp();
    });
    afterAll(() => target.close());

    audioConformance(() => target);

    it('maps a wrong key (upstream 401, or the provider own status) to a non-retryable ProviderError with no body text or key in it', async () => {
      const wrongKey = `wrong-key-${conformanceCase.name}-ZQXJ`;
      const adapter: SpeechAdapter = target.adapterWithKey!(wrongKey);
      const error = await rejectionOf(adapter.synthesize(target.input('mp3'), { signal: signal() }));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({
        provider: conformanceCase.name, statusCode: conformanceCase.wrongKeyStatus ?? 401, isRetryable: false, kind: 'http', category: 'upstream_auth_failed',
      });
      const exposed = exposedText(error);
      for (const secret of [target.fake!.leakMarker, wrongKey, 'ZQXJ', target.fake!.apiKey]) expect(exposed).not.toContain(secret);
    });

    it.each(STATUS_CATEGORIES)('maps upstream %i to category %s (retryable: %s) without the upstream body', async (status, category, retryable) => {
      target.fake!.setBehavior({ status, times: 1 });
      const error = await rejectionOf(target.adapter.synthesize(target.input('mp3'), { signal: signal() }));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ statusCode: status, category, isRetryable: retryable, kind: 'http' });
      expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
      expect(exposedText(error)).not.toContain(target.fake!.apiKey);
    });

    it('maps a generic upstream 400 to a client refusal (not retried, not an upstream failure)', async () => {
      target.fake!.setBehavior({ status: 400, times: 1 });
      const error = await rejectionOf(target.adapter.synthesize(target.input('mp3'), { signal: signal() }));
      expect(error).toBeInstanceOf(UpstreamInvalidRequestError);
      expect(error).not.toBeInstanceOf(ProviderError);
      expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
    });

    for (const refusal of conformanceCase.clientRefusals) {
      it(`names the refused field for ${refusal.description}`, async () => {
        const error = (await rejectionOf(
          target.adapter.synthesize(target.input('mp3', refusal.overrides), { signal: signal() }),
        )) as UpstreamInvalidRequestError;
        expect(error).toBeInstanceOf(UpstreamInvalidRequestError);
        expect(error.field).toBe(refusal.field);
        expect(error.details).toBe(
          refusal.field
            ? `${conformanceCase.name} refused the value of ${refusal.field}`
            : `${conformanceCase.name} refused the request; check model, voice, input and provider_options`,
        );
        expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
      });
    }

    it.each([400, 404, 429, 500])('keeps nothing of an error whose every field and header is marked (HTTP %i)', async (status) => {
      target.fake!.setBehavior({ status, times: 1, markEveryField: true });
      const error = await rejectionOf(target.adapter.synthesize(target.input('mp3'), { signal: signal() }));
      expect(error instanceof ProviderError || error instanceof UpstreamInvalidRequestError).toBe(true);
      expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
      // The marked Retry-After is not a number: it is dropped rather than kept as text.
      expect((error as ProviderError).retryAfterMs).toBeUndefined();
    });

    it('keeps path-injection voices inside the intended path (or refuses them before sending)', async () => {
      for (const voice of PATH_INJECTION_VOICES) {
        const before = target.fake!.requests.length;
        try {
          await collect((await target.adapter.synthesize(target.input('pcm', { voice }), { signal: signal() })).audio);
        } catch (error) {
          // Refused locally, or answered by upstream (e.g. unknown voice): both fine, as long as the route held.
          if (!(error instanceof InvalidSpeechRequestError) && !(error instanceof ProviderError)) throw error;
          if (error instanceof ProviderError) expect(error.statusCode).not.toBe(null);
          if (error instanceof UpstreamInvalidRequestError) expect(error.field).toBe('voice');
        }
        const sent = target.fake!.requests.slice(before);
        expect(sent.length).toBeLessThanOrEqual(1);
        for (const recorded of sent) {
          expect(recorded.kind).toBe(conformanceCase.fakeKind);
          conformanceCase.expectVoicePlacement(recorded, voice);
        }
      }
    });

    it("sends the key only in the provider's auth header", async () => {
      await collect((await target.adapter.synthesize(target.input('pcm'), { signal: signal() })).audio);
      const recorded = target.fake!.requests.at(-1)!;
      const apiKey = target.fake!.apiKey;
      const [headerName, headerValue] = conformanceCase.authHeader(apiKey);
      if (typeof headerValue === 'string') expect(recorded.headers[headerName]).toBe(headerValue);
      else expect(recorded.headers[headerName]).toMatch(headerValue);
      for (const [name, value] of Object.entries(recorded.headers)) {
        if (name !== headerName) expect(String(value)).not.toContain(apiKey);
      }
      expect(recorded.path).not.toContain(apiKey);
      expect(JSON.stringify(recorded.body)).not.toContain(apiKey);
    });

    it('is retried through the registry after retryable failures (503, 429), then streams audio', async () => {
      const registry = target.registryWith!({ maxAttempts: 3, backoffBaseMs: 1 });
      try {
        for (const status of [503, 429]) {
          const before = target.fake!.requests.length;
          target.fake!.setBehavior({ status, times: 2 });
          const result = await registry.synthesize(conformanceCase.name, target.input('mp3'), { signal: signal() });
          expect((await collect(result.audio)).length).toBeGreaterThan(0);
          expect(target.fake!.requests.slice(before).map((request) => request.status)).toEqual([status, status, 200]);
        }
      } finally {
        target.fake!.setBehavior('normal');
        await registry.close();
      }
    });

    it('is not retried through the registry after a non-retryable failure (402), and the error keeps no upstream text', async () => {
      const registry = target.registryWith!({ maxAttempts: 3, backoffBaseMs: 1 });
      try {
        const before = target.fake!.requests.length;
        target.fake!.setBehavior({ status: 402, times: 1, markEveryField: true });
        const error = await rejectionOf(registry.synthesize(conformanceCase.name, target.input('mp3'), { signal: signal() }));
        expect(error).toMatchObject({ category: 'upstream_quota_exceeded', isRetryable: false, attempts: 1 });
        expect(target.fake!.requests.length - before).toBe(1);
        expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
        expect(exposedText(error)).not.toContain(target.fake!.apiKey);
      } finally {
        target.fake!.setBehavior('normal');
        await registry.close();
      }
    });

    it('opens its breaker after consecutive failures and then refuses without calling upstream', async () => {
      const registry = target.registryWith!({ maxAttempts: 1, breaker: { failureThreshold: 2, cooldownMs: 60_000 } });
      try {
        const before = target.fake!.requests.length;
        target.fake!.setBehavior({ status: 500, times: 2, markEveryField: true });
        for (let failure = 0; failure < 2; failure += 1) {
          // What the data plane logs of a failure is these fields: none may carry upstream text or the key.
          const error = await rejectionOf(registry.synthesize(conformanceCase.name, target.input('mp3'), { signal: signal() }));
          expect(error).toMatchObject({ category: 'upstream_server_error', statusCode: 500 });
          expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
          expect(exposedText(error)).not.toContain(target.fake!.apiKey);
        }
        expect(registry.status()).toEqual([{ id: conformanceCase.name, state: 'unavailable', reason: 'circuit_open' }]);
        expect(await rejectionOf(registry.synthesize(conformanceCase.name, target.input('mp3'), { signal: signal() }))).toBeInstanceOf(
          CircuitOpenError,
        );
        expect(target.fake!.requests.length - before).toBe(2);
      } finally {
        target.fake!.setBehavior('normal');
        await registry.close();
      }
    });

    it.runIf(conformanceCase.listsVoicesLive)('lists live voices normalized: canonical BCP 47, one gender vocabulary, string labels, http(s) previews, its own models', async () => {
      const registry = target.registryWith!({ maxAttempts: 1 });
      try {
        expect(registry.liveVoiceProviders()).toEqual([conformanceCase.name]);
        const voices = await registry.listVoices(conformanceCase.name, { signal: signal() });
        expect(voices.length).toBeGreaterThan(0);
        const models = new Set(registry.descriptor(conformanceCase.name)!.models.map((model) => model.id));
        for (const voice of voices) {
          const where = `voice ${voice.id}`;
          expect(voice.id, where).toMatch(/\S/);
          expect(voice.name, where).toMatch(/\S/);
          expect(Intl.getCanonicalLocales(voice.language)[0], where).toBe(voice.language);
          if (voice.labels.gender !== undefined) expect(['female', 'male', 'neutral'], where).toContain(voice.labels.gender);
          for (const value of Object.values(voice.labels)) expect(typeof value, where).toBe('string');
          if (voice.previewUrl !== undefined) expect(voice.previewUrl, where).toMatch(/^https?:\/\//);
          expect(voice.modelCompatibility.length, where).toBeGreaterThan(0);
          for (const model of voice.modelCompatibility) expect(models.has(model), `${where} model ${model}`).toBe(true);
        }
      } finally {
        await registry.close();
      }
    });

    it.runIf(conformanceCase.listsVoicesLive)('fails a voice listing the provider refuses with a VoiceListingError that keeps no upstream text', async () => {
      const registry = target.registryWith!({ maxAttempts: 1 });
      try {
        target.fake!.setBehavior({ status: 500, markEveryField: true });
        const error = await rejectionOf(registry.listVoices(conformanceCase.name, { signal: signal() }));
        expect(error).toBeInstanceOf(VoiceListingError);
        expect(error).toMatchObject({ provider: conformanceCase.name, failure: 'server_error' });
        expect(exposedText(error)).not.toContain(target.fake!.leakMarker);
        expect(exposedText(error)).not.toContain(target.fake!.apiKey);
      } finally {
        target.fake!.setBehavior('normal');
        await registry.close();
      }
    });

    it('reports a timeout as a retryable ProviderError of kind timeout', async () => {
      target.fake!.setBehavior({ hang: true });
      try {
        const started = Date.now();
        const error = await rejectionOf(target.adapter.synthesize(target.input('pcm'), { signal: signal() }));
        expect(error).toMatchObject({ kind: 'timeout', category: 'upstream_timeout', isRetryable: true, statusCode: null });
        expect(Date.now() - started).toBeLessThan(ATTEMPT_TIMEOUT_MS + 1000);
        expect(await target.fake!.waitForOutcome(target.fake!.requests.at(-1)!)).toBe('aborted');
      } finally {
        target.fake!.setBehavior('normal');
      }
    });
  });
}

// The local adapter runs the real synthesizer; skip it, loudly, when that package is not built.
let localSkipReason: string | undefined;
let createLocalAdapter: ((firstByteTimeoutMs: number) => SpeechAdapter) | undefined;
try {
  const local = await import('../local/index.js');
  createLocalAdapter = (firstByteTimeoutMs) => local.createLocalSpeechAdapter({ firstByteTimeoutMs });
} catch (error) {
  localSkipReason = `@voice-router/speech-espeak is not built (${(error as Error).message.split('\n')[0]}); run its build first`;
}

describe.skipIf(localSkipReason !== undefined)(
  `adapter conformance: local (real eSpeak NG synthesizer)${localSkipReason ? ` SKIPPED: ${localSkipReason}` : ''}`,
  () => {
    let adapter: SpeechAdapter;
    beforeAll(() => {
      // Generous deadline: the first request also waits for the worker to load eSpeak NG.
      adapter = createLocalAdapter!(15_000);
    });
    afterAll(() => adapter.close());

    audioConformance(() => ({
      adapter,
      input: (format, overrides = {}) => ({
        modelId: 'espeak-ng',
        voice: 'en-us',
        text: 'Hello from the conformance suite.',
        format,
        providerOptions: {},
        ...overrides,
      }),
      close: async () => undefined,
    }));

    it('refuses unknown and path-injection voices as invalid requests', async () => {
      for (const voice of PATH_INJECTION_VOICES) {
        const error = await rejectionOf(
          adapter.synthesize({ modelId: 'espeak-ng', voice, text: 'x', format: 'pcm', providerOptions: {} }, { signal: signal() }),
        );
        expect(error).toBeInstanceOf(InvalidSpeechRequestError);
      }
    });
  },
);
