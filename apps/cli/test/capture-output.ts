// In-process runs of `vr`: output streams that remember what was written, and a runner around runCli.
import { Writable } from 'node:stream';
import { runCli, type CliIo } from '../src/index.js';

export class CapturedStream extends Writable {
  readonly chunks: Buffer[] = [];
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
    this.chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
    callback();
  }
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  get text(): string {
    return this.bytes.toString('utf8');
  }
}

export interface VrRun {
  exitCode: number;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export interface VrRunOptions extends Partial<Omit<CliIo, 'stdout' | 'stderr' | 'env'>> {
  env: Record<string, string | undefined>;
  stdoutIsTTY?: boolean;
  stderrIsTTY?: boolean;
  /** Lets a test watch output while the command still runs (for `vr login`). */
  stdout?: CapturedStream;
}

export async function runVr(argv: string[], options: VrRunOptions): Promise<VrRun> {
  const stdout = options.stdout ?? new CapturedStream(options.stdoutIsTTY);
  const stderr = new CapturedStream(options.stderrIsTTY);
  const exitCode = await runCli(argv, { ...options, stdout, stderr, env: options.env });
  return { exitCode, stdout: stdout.text, stderr: stderr.text, stdoutBytes: stdout.bytes };
}

/**
 * Runs `vr` again every 100 ms (for up to 5 s) until `done` holds for its run, as a user re-running a
 * command would wait for an asynchronous settlement to show; returns the last run.
 */
export async function runVrUntil(argv: string[], options: VrRunOptions, done: (run: VrRun) => boolean): Promise<VrRun> {
  let run = await runVr(argv, options);
  for (let round = 0; round < 50 && !done(run); round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    run = await runVr(argv, options);
  }
  return run;
}
