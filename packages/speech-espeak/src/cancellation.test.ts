// Abort, early exit, concurrency and shutdown, against the compiled package and real worker threads.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { builtPackageUrl, collect, concatenate, loadBuiltPackage } from '../test/built-package.js';

const { createLocalSynthesizer } = await loadBuiltPackage();

// Hours of audio: several minutes of work even at full speed, so finishing quickly afterwards proves
// the worker really stopped instead of only going quiet.
const ENDLESS_TEXT = Array.from({ length: 10_000 }, (_, index) => `This is sentence ${index} of a very long text.`).join(' ');
const SHORT = { text: 'Still working after that.', voice: 'en-us', format: 'mp3' } as const;

async function timed<T>(work: () => Promise<T>): Promise<{ result: T; milliseconds: number }> {
  const start = performance.now();
  const result = await work();
  return { result, milliseconds: performance.now() - start };
}

describe('cancellation', () => {
  it('aborting the signal mid-stream rejects at once and frees the only worker', async () => {
    const synthesizer = createLocalSynthesizer({ workers: 1 });
    try {
      const controller = new AbortController();
      const iterator = synthesizer
        .synthesize({ text: ENDLESS_TEXT, voice: 'en-us', format: 'mp3' }, controller.signal)
        [Symbol.asyncIterator]();
      expect((await iterator.next()).done).toBe(false);
      const pending = iterator.next().then(() => iterator.next());
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });

      const next = await timed(() => collect(synthesizer.synthesize(SHORT)));
      expect(next.result.length).toBeGreaterThan(0);
      expect(next.milliseconds).toBeLessThan(10_000);
    } finally {
      await synthesizer.close();
    }
  });

  it('breaking out of the loop stops the work', async () => {
    const synthesizer = createLocalSynthesizer({ workers: 1 });
    try {
      let received = 0;
      for await (const chunk of synthesizer.synthesize({ text: ENDLESS_TEXT, voice: 'en-us-f', format: 'pcm' })) {
        received += chunk.byteLength;
        if (received > 48_000) break;
      }
      const next = await timed(() => collect(synthesizer.synthesize(SHORT)));
      expect(next.result.length).toBeGreaterThan(0);
      expect(next.milliseconds).toBeLessThan(10_000);
    } finally {
      await synthesizer.close();
    }
  });

  it('an already aborted signal yields no audio', async () => {
    const synthesizer = createLocalSynthesizer();
    try {
      const stream = synthesizer.synthesize(SHORT, AbortSignal.abort());
      await expect(collect(stream)).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      await synthesizer.close();
    }
  });
});

describe('concurrency', () => {
  it('completes many concurrent requests on a small pool, each with its own audio intact', async () => {
    const synthesizer = createLocalSynthesizer({ workers: 2 });
    try {
      const requests = [
        { text: 'First request, in American English.', voice: 'en-us', format: 'mp3' },
        { text: 'Second request. It has two sentences.', voice: 'en-gb-f', format: 'pcm' },
        { text: 'Dritte Anfrage auf Deutsch.', voice: 'de', format: 'mp3' },
        { text: 'Quatrième demande, en français.', voice: 'fr-f', format: 'pcm' },
        { text: 'Quinta solicitud en español.', voice: 'es', format: 'mp3' },
        { text: 'Sixth request, spoken quickly.', voice: 'en-us-f', format: 'pcm', speed: 1.5 },
      ] as const;
      const sequential: Uint8Array[] = [];
      for (const request of requests) sequential.push(concatenate(await collect(synthesizer.synthesize(request))));
      const concurrent = await Promise.all(
        requests.map(async (request) => concatenate(await collect(synthesizer.synthesize(request)))),
      );
      // eSpeak NG's pitch flutter carries over from earlier utterances, so the bytes (and the length,
      // by a few samples) differ from run to run; a stream mixed with another's chunks would not match.
      for (const [index, bytes] of concurrent.entries()) {
        expect(bytes.byteLength, `request ${index}`).toBeGreaterThan(1_000);
        expect(bytes.byteLength / sequential[index]!.byteLength, `request ${index}`).toBeCloseTo(1, 2);
      }
    } finally {
      await synthesizer.close();
    }
  });
});

describe('close()', () => {
  it('ends the worker threads so the process exits on its own', async () => {
    const script = `
      import { createLocalSynthesizer } from ${JSON.stringify(builtPackageUrl.href)};
      const synthesizer = createLocalSynthesizer({ workers: 2 });
      let bytes = 0;
      for await (const chunk of synthesizer.synthesize({ text: 'Goodbye.', voice: 'en-us', format: 'mp3' })) bytes += chunk.byteLength;
      await synthesizer.close();
      console.log('closed after ' + bytes + ' bytes');
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 30_000,
    });
    expect(stdout).toMatch(/closed after [1-9]\d* bytes/);
  });

  it('fails requests that are in flight or arrive later', async () => {
    const synthesizer = createLocalSynthesizer();
    const failureOf = (stream: AsyncIterable<Uint8Array>) => collect(stream).then(() => undefined, (error: unknown) => error);
    const inFlight = failureOf(synthesizer.synthesize({ text: ENDLESS_TEXT, voice: 'en-us', format: 'pcm' }));
    const queued = failureOf(synthesizer.synthesize(SHORT));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await synthesizer.close();
    expect(await inFlight).toMatchObject({ message: expect.stringMatching(/closed/) });
    expect(await queued).toMatchObject({ message: expect.stringMatching(/closed/) });
    await expect(collect(synthesizer.synthesize(SHORT))).rejects.toThrow(/closed/);
  });
});
