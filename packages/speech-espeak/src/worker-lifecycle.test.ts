// Workers start with the first job and stop after idleTimeoutMs without one; the next job starts a new one.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { builtPackageUrl, collect, concatenate, loadBuiltPackage } from '../test/built-package.js';

const { createLocalSynthesizer } = await loadBuiltPackage();
// Long enough that, on a loaded machine, the first worker does not stop while the second is still
// starting (loading eSpeak NG took longer than 300 ms there once, and the pair was never seen).
const IDLE_MS = 1_500;
const synthesizer = createLocalSynthesizer({ workers: 2, idleTimeoutMs: IDLE_MS });
afterAll(() => synthesizer.close());

const speak = async (text: string) => concatenate(await collect(synthesizer.synthesize({ text, voice: 'en-us', format: 'pcm' }))).byteLength;

async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('local synthesis workers', () => {
  it('start with the first job, as many as the jobs at once need, and stop once idle', async () => {
    expect(synthesizer.workerThreads()).toBe(0);
    expect(await speak('Hello there.')).toBeGreaterThan(0);
    expect(synthesizer.workerThreads()).toBe(1);
    // Two at once: a second worker starts, up to the pool's size (the most seen while they run).
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, synthesizer.workerThreads())), 5);
    const both = await Promise.all([speak('The first of two sentences.'), speak('And the second one.')]);
    clearInterval(watch);
    most = Math.max(most, synthesizer.workerThreads());
    expect(both.every((bytes) => bytes > 0)).toBe(true);
    expect(most).toBe(2);
    await until(() => synthesizer.workerThreads() === 0, IDLE_MS + 10_000);
    // The next job starts a worker again.
    expect(await speak('Back again.')).toBeGreaterThan(0);
    expect(synthesizer.workerThreads()).toBe(1);
  });

  it('keep a worker while jobs keep coming', async () => {
    for (let index = 0; index < 4; index += 1) {
      expect(await speak(`Sentence number ${index}.`)).toBeGreaterThan(0);
      expect(synthesizer.workerThreads()).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  });

  it('start in a process run with an option a worker may not take (node --expose-gc)', async () => {
    const script = `
      const { createLocalSynthesizer } = await import(${JSON.stringify(builtPackageUrl.href)});
      const synthesizer = createLocalSynthesizer();
      let bytes = 0;
      for await (const chunk of synthesizer.synthesize({ text: 'Hello.', voice: 'en-us', format: 'pcm' })) bytes += chunk.byteLength;
      await synthesizer.close();
      console.log(bytes);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { timeout: 30_000 });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
  });
});
