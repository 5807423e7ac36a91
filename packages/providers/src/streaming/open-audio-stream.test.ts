// First-chunk deadline and cancellation, against synthetic sources.

import { describe, expect, it } from 'vitest';
import { isCollected } from '@voice-router/test-support';
import { ProviderError } from '../errors.js';
import { rejectionOf } from '../__fixtures__/speech-helpers.js';
import { openAudioStream } from './open-audio-stream.js';
import type { AbortSignalLike } from './light-abort-signal.js';

/** An iterator over fixed chunks that records whether it was closed early. */
function chunks(values: Uint8Array[]) {
  const state = { returned: false };
  let index = 0;
  const iterator: AsyncIterator<Uint8Array> = {
    next: async () => (index < values.length ? { done: false, value: values[index++]! } : { done: true, value: undefined }),
    return: async () => {
      state.returned = true;
      return { done: true, value: undefined };
    },
  };
  return { iterator, state };
}

/** Reads one chunk and keeps nothing of it but its length. */
async function readOneLength(audio: AsyncIterator<Uint8Array>): Promise<number | undefined> {
  return (await audio.next()).value?.byteLength;
}

const mapError = (error: unknown) => new ProviderError({ provider: 'test', kind: 'network', category: 'upstream_network_error', isRetryable: true, detail: String(error).slice(0, 20) });

describe('openAudioStream', () => {
  it('skips empty chunks and yields the rest in order', async () => {
    const { iterator } = chunks([new Uint8Array(0), Uint8Array.of(1), new Uint8Array(0), Uint8Array.of(2, 3)]);
    const audio = await openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 100, open: async () => iterator, mapError });
    const seen: number[] = [];
    for await (const chunk of audio) seen.push(...chunk);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('enforces the deadline even when the source ignores the abort signal, and closes it when it shows up', async () => {
    const { iterator, state } = chunks([Uint8Array.of(1)]);
    const late = new Promise<AsyncIterator<Uint8Array>>((resolve) => setTimeout(() => resolve(iterator), 120));
    const error = await rejectionOf(
      openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 30, open: () => late, mapError }),
    );
    expect(error).toMatchObject({ kind: 'timeout', isRetryable: true });
    await late;
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(state.returned).toBe(true);
  });

  it("a caller's abort while the first chunk is awaited fails the attempt at once with the caller's reason", async () => {
    // The source opens but its first chunk never comes, and it ignores the attempt's signal.
    const iterator: AsyncIterator<Uint8Array> = { next: () => new Promise(() => undefined) };
    const caller = new AbortController();
    let attemptSignal: AbortSignalLike | undefined;
    const opening = openAudioStream({
      provider: 'test', signal: caller.signal, firstByteTimeoutMs: 5_000, mapError,
      open: async (signal) => {
        attemptSignal = signal;
        return iterator;
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const reason = new Error('client left');
    const startedAt = performance.now();
    caller.abort(reason);
    expect(await rejectionOf(opening)).toBe(reason);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
    expect(attemptSignal?.aborted).toBe(true);
  });

  it('keeps nothing of the first chunk once it is handed out, while the stream stays open', async () => {
    let firstChunk: WeakRef<Uint8Array> | undefined;
    let returned = false;
    const iterator: AsyncIterator<Uint8Array> = {
      next: () => {
        if (firstChunk) return new Promise(() => undefined); // no second chunk yet: the stream stays open
        const first = new Uint8Array(64 * 1024);
        firstChunk = new WeakRef(first);
        return Promise.resolve({ done: false, value: first });
      },
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    };
    const audio = await openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 1_000, open: async () => iterator, mapError });
    expect(await readOneLength(audio)).toBe(64 * 1024);
    // As the data plane does once the chunk is written: ask for the next one, which is not there yet.
    void audio.next();
    expect(await isCollected(firstChunk!)).toBe(true);
    await audio.return!();
    expect(returned).toBe(true);
  });

  it('closes the source when the consumer returns before reading anything', async () => {
    const { iterator, state } = chunks([Uint8Array.of(1), Uint8Array.of(2)]);
    const audio = await openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 100, open: async () => iterator, mapError });
    await audio.return!();
    expect(state.returned).toBe(true);
    expect((await audio.next()).done).toBe(true);
  });

  it("hands out nothing more once the caller aborts, even what the source already holds, and closes it", async () => {
    // A source that ignores the abort: a converting one still holds output of a chunk read before it.
    const { iterator, state } = chunks([Uint8Array.of(1), Uint8Array.of(2), Uint8Array.of(3)]);
    const caller = new AbortController();
    const audio = await openAudioStream({ provider: 'test', signal: caller.signal, firstByteTimeoutMs: 100, open: async () => iterator, mapError });
    expect((await audio.next()).value).toEqual(Uint8Array.of(1));
    caller.abort(new DOMException('client went away', 'AbortError'));
    expect(await rejectionOf(audio.next())).toMatchObject({ name: 'AbortError', message: 'client went away' });
    expect(state.returned).toBe(true);
    expect((await audio.next()).done).toBe(true);
  });

  it('reports an empty body as a protocol error', async () => {
    const { iterator } = chunks([]);
    const error = await rejectionOf(
      openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 100, open: async () => iterator, mapError }),
    );
    expect(error).toMatchObject({ kind: 'protocol', isRetryable: false });
  });

  it('maps unexpected source errors mid-stream', async () => {
    let calls = 0;
    const iterator: AsyncIterator<Uint8Array> = {
      next: async () => {
        calls += 1;
        if (calls === 1) return { done: false, value: Uint8Array.of(1) };
        throw new Error('socket hang up');
      },
    };
    const audio = await openAudioStream({ provider: 'test', signal: new AbortController().signal, firstByteTimeoutMs: 100, open: async () => iterator, mapError });
    await audio.next();
    expect(await rejectionOf(audio.next())).toMatchObject({ kind: 'network' });
  });
});
