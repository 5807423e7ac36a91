// The system under fuzz: the real embedded service as a child process (PGlite in a scratch DATA_DIR,
// in-process settlement), listening on loopback, in front of the faithful fake upstreams. One fake
// answers normally (openai), one fails every request (elevenlabs: the documented 502, or 503 once a
// breaker opens), and cartesia has no key (503 provider_unavailable). Restartable after a crash so a
// counterexample that kills the process can still be shrunk.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeProvider, type FakeProviderServer } from '@voice-router/provider-fakes';
import { freePort } from '@voice-router/test-support';

export const repositoryRoot = fileURLToPath(new URL('../../', import.meta.url));
const entry = (app: string) => path.join(repositoryRoot, 'apps', app, 'dist', 'main.js');

export interface ServiceUnderFuzz {
  baseUrl: string;
  /** True while the service process runs. */
  alive(): boolean;
  /** How often the process died (each death is a failure; it is restarted for the next input). */
  deaths: Array<{ code: number | null; signal: string | null; lastLines: string }>;
  /** Starts the process again after a death (same port, same data). */
  restart(): Promise<void>;
  /** `npm run admin -- …` against this service's data dir, parsed JSON out. */
  admin(args: string[], input?: string): Promise<Record<string, unknown>>;
  logs(): string;
  /** Which HTTP server the data plane runs on, as it logged at start. */
  implementation(): string;
  close(): Promise<void>;
}

interface Child {
  process: ChildProcess;
  output: string[];
}

function startChild(args: string[], environment: Record<string, string>, input?: string): Child {
  const child = spawn(process.execPath, args, {
    cwd: repositoryRoot,
    // METRICS_PORT=0: any free port, so parallel runs do not contend for the default 9464.
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? os.tmpdir(), METRICS_PORT: '0', ...environment },
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  if (input !== undefined) child.stdin!.end(input);
  return { process: child, output };
}

async function waitUntilServing(baseUrl: string, child: Child, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null) throw new Error(`the embedded service exited early:\n${child.output.join('')}`);
    // The data plane answers /healthz itself.
    const status = await fetch(`${baseUrl}/healthz`).then((response) => response.status, () => 0);
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the embedded service did not come up:\n${child.output.join('')}`);
}

export async function startServiceUnderFuzz(): Promise<ServiceUnderFuzz> {
  // Small fixed-size audio keeps each 200 quick; the price depends on the input, not on the audio.
  const working = await startFakeProvider('openai', { totalBytes: 2_088, recordRequests: false });
  const failing = await startFakeProvider('elevenlabs', { recordRequests: false });
  failing.setBehavior({ status: 500 });
  const fakes: FakeProviderServer[] = [working, failing];
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-fuzz-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const environment = {
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    // info: the data plane names its HTTP server at start (reported in the summary).
    LOG_LEVEL: 'info',
    OPENAI_API_KEY: working.apiKey,
    OPENAI_BASE_URL: working.baseUrl,
    ELEVENLABS_API_KEY: failing.apiKey,
    ELEVENLABS_BASE_URL: failing.baseUrl,
    UPSTREAM_MAX_ATTEMPTS: '2',
    // The fuzz sends thousands of requests a minute with one key; a key of its own (limitedKey) meets the limits.
    DEFAULT_KEY_RATE_LIMIT_PER_MINUTE: '1000000',
    UPSTREAM_ATTEMPT_TIMEOUT_MS: '5000',
  };
  const deaths: ServiceUnderFuzz['deaths'] = [];
  const logs: string[] = [];
  let child: Child;

  const launch = async () => {
    child = startChild([entry('embedded')], environment);
    const current = child;
    current.process.on('exit', (code, signal) => {
      logs.push(current.output.join(''));
      if (!closing) deaths.push({ code, signal, lastLines: current.output.join('').split('\n').slice(-30).join('\n') });
    });
    await waitUntilServing(baseUrl, current);
  };
  let closing = false;
  await launch();

  return {
    baseUrl,
    deaths,
    alive: () => child.process.exitCode === null && child.process.signalCode === null,
    async restart() {
      await launch();
    },
    admin(args, input) {
      return new Promise((resolve, reject) => {
        const admin = startChild([entry('admin'), ...args], { DATA_DIR: dataDir }, input);
        admin.process.on('exit', (code) => {
          const text = admin.output.join('');
          if (code !== 0) return reject(new Error(`admin ${args[0]} failed (${code}): ${text}`));
          try {
            resolve(JSON.parse(text.slice(text.indexOf('{'))) as Record<string, unknown>);
          } catch {
            reject(new Error(`admin ${args[0]} printed no JSON: ${text}`));
          }
        });
      });
    },
    logs: () => [...logs, child.process.exitCode === null ? child.output.join('') : ''].join('\n'),
    // The data plane logs `data plane HTTP server: <description>` at start.
    implementation: () => /data plane HTTP server: ([^"]*)"/.exec(child.output.join(''))?.[1] ?? 'unknown HTTP server',
    async close() {
      closing = true;
      const running = child.process;
      if (running.exitCode === null && running.signalCode === null) {
        const exited = new Promise((resolve) => running.once('exit', resolve));
        const timer = setTimeout(() => running.kill('SIGKILL'), 10_000);
        running.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      for (const fake of fakes) await fake.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
