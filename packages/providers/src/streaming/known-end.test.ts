// Audio that knows its end: once the upstream body has ended and its last chunk is handed out,
// `exhausted()` says so before the iterator is asked again, so the data plane can end the response in
// the same write as that chunk. An upstream that has not ended yet never says so.
import { afterEach, describe, expect, it } from 'vitest';
import { openAIProvider } from '../openai/index.js';
import { createProviderRegistry, type ProviderRegistry } from '../registry.js';
import { CHUNKED_AUDIO_HEAD as HEAD, CHUNKED_END as END, chunkedPart as chunk, startRawUpstream, type RawUpstream } from '../testing/raw-upstream.js';
import { openAIInput } from '../__fixtures__/speech-helpers.js';

const audioA = Buffer.alloc(3000, 1);
const audioB = Buffer.alloc(2000, 2);

let registry: ProviderRegistry | undefined;
let upstream: RawUpstream | undefined;
afterEach(async () => {
  await registry?.close();
  await upstream?.close();
});

async function synthesize(parts: () => Buffer[], gapMs = 0, format: 'mp3' | 'pcm' = 'mp3') {
  upstream = await startRawUpstream(parts, gapMs);
  registry = createProviderRegistry(
    { attemptTimeoutMs: 2000, maxAttempts: 1, providers: { openai: { apiKey: 'sk-test', baseUrl: upstream.baseUrl } } },
    [openAIProvider],
  );
  return registry.synthesize('openai', openAIInput({ format }), { signal: new AbortController().signal });
}

/** Each chunk handed out, with what exhausted() said right after it (before the next one was asked for). */
async function readAll(audio: AsyncIterable<Uint8Array> & { exhausted?(): boolean }) {
  const seen: Array<{ bytes: number; exhausted: boolean | undefined }> = [];
  for await (const piece of audio) seen.push({ bytes: piece.byteLength, exhausted: audio.exhausted?.() });
  return seen;
}

describe('exhausted()', () => {
  it('is true with the last chunk when the body ends in the same read', async () => {
    const result = await synthesize(() => [Buffer.concat([Buffer.from(HEAD), chunk(audioA), chunk(audioB), END])]);
    const seen = await readAll(result.audio);
    expect(seen.reduce((sum, item) => sum + item.bytes, 0)).toBe(5000);
    expect(seen.at(-1)!.exhausted).toBe(true);
  });

  it('is false while the upstream has not ended, then true with the chunk that came with the end', async () => {
    const result = await synthesize(() => [Buffer.concat([Buffer.from(HEAD), chunk(audioA)]), Buffer.concat([chunk(audioB), END])], 50);
    expect(await readAll(result.audio)).toEqual([{ bytes: 3000, exhausted: false }, { bytes: 2000, exhausted: true }]);
  });

  it('is false for a last chunk whose end comes in a later read (the iterator then ends as usual)', async () => {
    const result = await synthesize(() => [Buffer.concat([Buffer.from(HEAD), chunk(audioA)]), END], 50);
    expect(await readAll(result.audio)).toEqual([{ bytes: 3000, exhausted: false }]);
  });

  it('is false while the first chunk is still held, even if the body has ended', async () => {
    const result = await synthesize(() => [Buffer.concat([Buffer.from(HEAD), chunk(audioA), END])]);
    expect(result.audio.exhausted?.()).toBe(false);
    expect(await readAll(result.audio)).toEqual([{ bytes: 3000, exhausted: true }]);
  });
});
