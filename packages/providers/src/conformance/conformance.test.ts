// The suite every adapter must pass: real audio in the requested format, error mapping without leaks,
// cancellation that reaches upstream, voices that cannot escape their path, keys only where they belong.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidSpeechRequestError, ProviderError, UpstreamInvalidRequestError } from '../errors.js';
import type { SpeechAdapter } from '../types.js';
import {
  ATTEMPT_TIMEOUT_MS,
  loadHttpConformanceCases,
  PATH_INJECTION_VOICES,
  STATUS_CATEGORIES,
  type ConformanceTarget,
} from '../__fixtures__/conformance-cases.js';
import { collect, probeMp3, rejectionOf, startsWithMp3FrameSync } from '../__fixtures__/speech-helpers.js';

// Under 2,000 characters (Inworld's per-request cap), still about two minutes of speech at the fakes' pace.
const LONG_TEXT = 'This sentence keeps the stream going for a long while. '.repeat(36);
const signal = () => new AbortController().signal;

/** Everything a thrown error exposes: message, stack and own fields. */
function exposedText(error: unknown): string {
  const record = error as Record<string, unknown>;
  return JSON.stringify({ ...record, message: (error as Error).message, stack: (error as Error).stack });
}

function audioConformance(getTarget: () => ConformanceTarget) {
  it('returns MP3 that starts with a frame sync (and decodes as mono MP3 at the declared rate when ffprobe is present)', async () => {
    const target = getTarget();
    const result = await target.adapter.synthesize(target.input('mp3'), { signal: signal() });
    expect(Array.isArray(result.warnings)).toBe(true);
    const bytes = await collect(result.audio);
    expect(startsWithMp3FrameSync(bytes)).toBe(true);
    const probe = await probeMp3(bytes);
    if (probe) {
      // probeAudio also reports the duration: any speech the suite asks for lasts well over a tenth of a second.
      expect(probe).toMatchObject({ codec: 'mp3', sampleRate: target.mp3SampleRate ?? 24000, channels: 1 });
      expect(probe.durationSeconds).toBeGreaterThan(0.1);
    }
  });

  it('returns PCM of even length', async () => {
    const target = getTarget();
    const bytes = await collect((await target.adapter.synthesize(target.input('pcm'), { signal: signal() })).audio);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.length % 2).toBe(0);
    // Decoded as the spec's pcm (s16le, 24 kHz, mono) by ffprobe when it is installed.
    const probe = await probeMp3(bytes, 'pcm');
    if (probe) expect(probe).toMatchObject({ codec: 'pcm_s16le', sampleRate: 24000, channels: 1 });
  });

  it('aborting mid-stream rejects iteration with the abort reason and stops the stream', async () => {
    const target = getTarget();
    const controller = new AbortController();
    const result = await target.adapter.synthesize(target.input('pcm', { text: LONG_TEXT }), { signal: controller.signal });
    const iterator = result.audio[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    controller.abort();
    expect(((await rejectionOf(iterator.next())) as Error).name).toBe('AbortError');
    expect((await iterator.next()).done).toBe(true);
    if (target.fake) expect(await target.fake.waitForOutcome(target.fake.requests.at(-1)!)).toBe('aborted');
  });

  it('breaking out of the loop cancels upstream', async () => {
    const target = getTarget();
    const result = await target.adapter.synthesize(target.input('mp3', { text: LONG_TEXT }), { signal: signal() });
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

it('finds every listed HTTP provider', () => {
  expect(httpConformanceCases.map((candidate) => candidate.name)).toEqual(expect.arrayContaining(['openai', 'elevenlabs', 'cartesia']));
});

for (const conformanceCase of httpConformanceCases) {
  describe(`adapter conformance: ${conformanceCase.name} (against its fake)`, () => {
    let target: ConformanceTarget;
    beforeAll(async () => {
      target = await conformanceCase.setUp();
    });
    afterAll(() => target.close());

    audioConformance(() => target);

    it('maps upstream 401 to a non-retryable ProviderError with no body text or key in it', async () => {
      const wrongKey = `wrong-key-${conformanceCase.name}-ZQXJ`;
      const adapter: SpeechAdapter = target.adapterWithKey!(wrongKey);
      const error = await rejectionOf(adapter.synthesize(target.input('mp3'), { signal: signal() }));
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({
        provider: conformanceCase.name, statusCode: 401, isRetryable: false, kind: 'http', category: 'upstream_auth_failed',
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
      expect(recorded.headers[headerName]).toBe(headerValue);
      for (const [name, value] of Object.entries(recorded.headers)) {
        if (name !== headerName) expect(String(value)).not.toContain(apiKey);
      }
      expect(recorded.path).not.toContain(apiKey);
      expect(JSON.stringify(recorded.body)).not.toContain(apiKey);
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
