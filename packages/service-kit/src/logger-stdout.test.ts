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

/** Like child(), but stdout is not read at all for `pauseMs`; stderr carries the child's own report. */
function childWithSlowReader(body: string, pauseMs: number): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const script = `import { createLogger } from ${JSON.stringify(built)};\nconst logger = createLogger({ name: 'child' });\n${body}`;
  const process_ = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  process_.stdout.pause();
  setTimeout(() => process_.stdout.resume(), pauseMs);
  let stdout = '';
  let stderr = '';
  process_.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  process_.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve) => process_.once('close', (code) => resolve({ stdout, stderr, code })));
}

// Writes `lines` log lines in bursts of 500 over the event loop while a 2 ms interval timer measures the
// longest stall of the loop; reports it on stderr, then stops gracefully (drainLogs, as onShutdown does).
const burstWriter = (lines: number) => `
import { drainLogs } from ${JSON.stringify(built)};
let last = performance.now();
let longest = 0;
const ticker = setInterval(() => { const now = performance.now(); longest = Math.max(longest, now - last); last = now; }, 2);
let written = 0;
const pad = 'x'.repeat(40);
await new Promise((resolve) => {
  const burst = () => {
    for (let end = Math.min(${lines}, written + 500); written < end; written += 1) logger.info('line', { n: written, pad });
    if (written < ${lines}) setTimeout(burst, 1); else resolve();
  };
  burst();
});
await new Promise((resolve) => setTimeout(resolve, 300));
clearInterval(ticker);
process.stderr.write(JSON.stringify({ longestStallMs: longest }) + '\\n');
await drainLogs(10_000);
process.exit(0);
`;

describe('a slow reader of stdout', () => {
  it('never stalls the process; every line arrives, in order, once the reader catches up', async () => {
    const { stdout, stderr, code } = await childWithSlowReader(burstWriter(20_000), 800);
    expect(code).toBe(0);
    // Before, a full pipe made pino's synchronous destination sleep the whole event loop 100 ms a time.
    expect(JSON.parse(stderr.trim()).longestStallMs).toBeLessThan(80);
    const numbers = stdout.trim().split('\n').map((line) => JSON.parse(line).n as number);
    expect(numbers).toEqual(Array.from({ length: 20_000 }, (_, index) => index));
  }, 60_000);

  it('drops lines past its memory bound, counts them, and says so in the next line written', async () => {
    // ~110 bytes a line: 120,000 lines are ~13 MB, beyond the 8 MiB the destination lets wait.
    const { stdout, stderr, code } = await childWithSlowReader(burstWriter(120_000), 2_500);
    expect(code, stderr).toBe(0);
    expect(JSON.parse(stderr.trim().split('\n').at(-1)!).longestStallMs, stderr).toBeLessThan(80);
    const parsed = stdout.trim().split('\n').map((line) => JSON.parse(line) as { n?: number; droppedLines?: number; level: string });
    const warnings = parsed.filter((line) => line.droppedLines !== undefined);
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.every((line) => line.level === 'warn' && (line as { app?: string }).app === 'child')).toBe(true);
    const delivered = parsed.filter((line) => line.n !== undefined).map((line) => line.n!);
    const dropped = warnings.reduce((sum, line) => sum + line.droppedLines!, 0);
    expect(dropped).toBeGreaterThan(0);
    expect(delivered.length + dropped).toBe(120_000);
    // What arrives arrives in order.
    expect(delivered.every((value, index) => index === 0 || value > delivered[index - 1]!)).toBe(true);
  }, 60_000);
});
