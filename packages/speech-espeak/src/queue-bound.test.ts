// The synthesis queue is bounded: with every worker busy and maxQueued jobs waiting, another request
// is refused at once with SynthesizerBusyError (and a Retry-After guess) instead of waiting.
import { afterAll, describe, expect, it } from 'vitest';
import { loadBuiltPackage } from '../test/built-package.js';
import type { SynthesizerBusyError as BusyError } from './errors.js';

const { createLocalSynthesizer, SynthesizerBusyError } = await loadBuiltPackage();

const synthesizer = createLocalSynthesizer({ workers: 1, maxQueued: 1 });
afterAll(() => synthesizer.close());

const LONG_TEXT = 'This sentence keeps the only worker busy for a while. '.repeat(20);

describe('a bounded synthesis queue', () => {
  it('refuses the job past the bound, then takes new work once a place frees', async () => {
    const running = synthesizer.synthesize({ text: LONG_TEXT, voice: 'en-us', format: 'pcm' })[Symbol.asyncIterator]();
    const waiting = synthesizer.synthesize({ text: 'short', voice: 'en-us', format: 'pcm' })[Symbol.asyncIterator]();
    const refused = synthesizer.synthesize({ text: 'one too many', voice: 'en-us', format: 'pcm' })[Symbol.asyncIterator]();
    const first = running.next();
    await new Promise((resolve) => setImmediate(resolve));
    const second = waiting.next();
    await new Promise((resolve) => setImmediate(resolve));
    const error = await refused.next().then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(SynthesizerBusyError);
    expect((error as BusyError).retryAfterMs).toBeGreaterThan(0);

    expect((await first).done).toBe(false);
    await running.return?.();
    expect((await second).done).toBe(false);
    for (let result = await waiting.next(); !result.done; result = await waiting.next());
    const later = synthesizer.synthesize({ text: 'there is room again', voice: 'en-us', format: 'pcm' })[Symbol.asyncIterator]();
    expect((await later.next()).done).toBe(false);
    await later.return?.();
  });
});
