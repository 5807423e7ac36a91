// The stdout destination batches lines (logger.ts): a line still reaches the reader within the flush
// period when nothing else is written, and exit writes out whatever is buffered.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { STDOUT_FLUSH_MS } from './logger.js';

const built = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'index.js')).href;

/** Runs `body` in a child Node process with `createLogger` imported from the build; resolves with each stdout chunk's arrival. */
function child(body: string): Promise<{ chunks: Array<{ at: number; text: string }>; code: number | null }> {
  const script = `import { createLogger } from ${JSON.stringify(built)};\nconst logger = createLogger({ name: 'child' });\n${body}`;
  const process_ = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const started = performance.now();
  const chunks: Array<{ at: number; text: string }> = [];
  process_.stdout.on('data', (chunk: Buffer) => chunks.push({ at: performance.now() - started, text: chunk.toString() }));
  return new Promise((resolve) => process_.once('close', (code) => resolve({ chunks, code })));
}

describe('the stdout destination', () => {
  it('delivers a lone line within the flush period, long before the process ends', async () => {
    const { chunks, code } = await child(`logger.info('lone line'); setTimeout(() => logger.info('second'), 1500);`);
    expect(code).toBe(0);
    const lone = chunks.find((chunk) => chunk.text.includes('lone line'));
    const second = chunks.find((chunk) => chunk.text.includes('"second"'));
    expect(lone).toBeDefined();
    expect(second).toBeDefined();
    // The first line arrived on its own, well before the second was even written (1.5 s in).
    expect(lone!.text.includes('"second"')).toBe(false);
    expect(second!.at - lone!.at).toBeGreaterThan(1500 - 2 * STDOUT_FLUSH_MS - 300);
  });

  it('writes out buffered lines when the process exits at once', async () => {
    const { chunks, code } = await child(`for (let i = 0; i < 3; i += 1) logger.info('line ' + i);\nprocess.exit(3);`);
    expect(code).toBe(3);
    const text = chunks.map((chunk) => chunk.text).join('');
    expect(text.trim().split('\n').map((line) => JSON.parse(line).msg)).toEqual(['line 0', 'line 1', 'line 2']);
  });
});
