// Starts the real embedded service as a process (PGlite in a fresh data dir) for the CLI's
// end-to-end suites, and runs the real operator CLI against it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { captureLogs, freePort } from '@voice-router/test-support';

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const vrBinary = path.join(repositoryRoot, 'apps', 'cli', 'dist', 'main.js');
const entry = (app: string) => path.join(repositoryRoot, 'apps', app, 'dist', 'main.js');

export interface RunningService {
  baseUrl: string;
  admin(...args: string[]): Promise<Record<string, unknown>>;
  logs(): string;
  close(): Promise<void>;
}

function collect(child: ChildProcess): string[] {
  const output: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  return output;
}

function baseEnvironment(): Record<string, string> {
  // Nothing of the developer's own environment (DATABASE_URL, provider keys) leaks into the service.
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), LOG_LEVEL: 'warn' };
}

export async function startService(environment: Record<string, string> = {}): Promise<RunningService> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-cli-e2e-'));
  const port = await freePort();
  const child = spawn(process.execPath, [entry('embedded')], {
    cwd: repositoryRoot,
    // METRICS_PORT=0: any free port, so parallel suites do not contend for the default 9464.
    env: { ...baseEnvironment(), METRICS_PORT: '0', ...environment, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collect(child);
  captureLogs('embedded-cli-e2e', child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`the embedded service exited early:\n${output.join('')}`);
    }
    const ready = await fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      await close();
      throw new Error(`the embedded service did not come up:\n${output.join('')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    baseUrl,
    admin: (...args) => runAdmin(dataDir, args),
    logs: () => output.join(''),
    close,
  };
}

function runAdmin(dataDir: string, args: string[]): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry('admin'), ...args], {
      cwd: repositoryRoot, env: { ...baseEnvironment(), DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output = collect(child);
    child.on('exit', (code) => {
      const text = output.join('');
      if (code !== 0) return reject(new Error(`admin ${args.join(' ')} failed (${code}): ${text}`));
      try {
        resolve(JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>);
      } catch {
        reject(new Error(`admin ${args.join(' ')} printed no JSON: ${text}`));
      }
    });
  });
}

/** Runs the built `vr` binary as its own process (stdout a pipe, not a terminal). */
export function runVrProcess(args: string[], env: Record<string, string>): Promise<{ exitCode: number; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [vrBinary, ...args], { env: { ...baseEnvironment(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: string[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ exitCode: code ?? -1, stdout: Buffer.concat(stdout), stderr: stderr.join('') }));
  });
}
