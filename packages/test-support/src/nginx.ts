// Runs the deployment's nginx configuration (infra/nginx/voice-router.conf.template) in front of
// processes on loopback: its own prefix, pid, logs and temp paths in a temporary directory, in the
// foreground, on a free port. Suites skip when nginx is not installed (Debian package `nginx`).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './free-port.js';

export const nginxTemplatePath = fileURLToPath(new URL('../../../infra/nginx/voice-router.conf.template', import.meta.url));

/** The nginx binary: NGINX_PATH, else the Debian location, else one on PATH; undefined when none. */
export function findNginx(): string | undefined {
  const candidates = [process.env.NGINX_PATH, '/usr/sbin/nginx', ...(process.env.PATH ?? '').split(':').map((directory) => path.join(directory, 'nginx'))];
  return candidates.find((candidate): candidate is string => Boolean(candidate) && fs.existsSync(candidate!));
}

/** Fills `${NAME}` placeholders; refuses to leave one unfilled (nginx would read it as a variable). */
export function renderNginxConfig(template: string, values: Record<string, string>): string {
  const rendered = template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (placeholder, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${placeholder} in the nginx template`);
    return value;
  });
  return rendered;
}

export interface NginxOptions {
  /** `host:port` of every data-plane replica. */
  dataPlanes: string[];
  /** `host:port` of every control-plane replica. */
  controlPlanes: string[];
  streamReadTimeout?: string;
  clientMaxBodySize?: string;
  templatePath?: string;
}

export interface RoutedRequest {
  method: string;
  uri: string;
  status: number;
  /** `host:port` of the upstream that answered (the last one tried), or `-`. */
  upstream: string;
}

export interface RunningNginx {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  /** The rendered server configuration, for failure messages. */
  config: string;
  /** Error and access logs so far. */
  logs(): string;
  /** Every finished request so far, with the upstream server nginx sent it to (`-` for none). */
  routes(): RoutedRequest[];
  close(): Promise<void>;
}

const servers = (addresses: string[]) => addresses.map((address) => `server ${address};`).join('\n    ');

export async function startNginx(options: NginxOptions): Promise<RunningNginx> {
  const binary = findNginx();
  if (!binary) throw new Error('nginx is not installed (Debian: apt-get install nginx, or set NGINX_PATH)');
  const port = await freePort();
  const config = renderNginxConfig(fs.readFileSync(options.templatePath ?? nginxTemplatePath, 'utf8'), {
    LISTEN: `127.0.0.1:${port}`,
    DATA_PLANE_SERVERS: servers(options.dataPlanes),
    CONTROL_PLANE_SERVERS: servers(options.controlPlanes),
    STREAM_READ_TIMEOUT: options.streamReadTimeout ?? '310s',
    CLIENT_MAX_BODY_SIZE: options.clientMaxBodySize ?? '1m',
  });
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'vr-nginx-'));
  // Run as root, nginx's workers switch to an unprivileged user that must reach the temp paths.
  fs.chmodSync(directory, 0o755);
  fs.writeFileSync(path.join(directory, 'voice-router.conf'), config);
  const file = (name: string) => path.join(directory, name);
  fs.writeFileSync(file('nginx.conf'), [
    'daemon off;',
    'worker_processes 1;',
    `pid ${file('nginx.pid')};`,
    `error_log ${file('error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    "  log_format routing '$request_method $request_uri $status $upstream_addr';",
    `  access_log ${file('access.log')} routing;`,
    ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `  ${kind}_temp_path ${file(kind)};`),
    `  include ${file('voice-router.conf')};`,
    '}',
    '',
  ].join('\n'));
  const args = ['-p', directory, '-c', file('nginx.conf'), '-e', file('error.log')];
  const checked = spawnSync(binary, ['-t', ...args], { encoding: 'utf8' });
  if (checked.status !== 0) throw new Error(`nginx rejected the configuration:\n${checked.stderr}\n${config}`);

  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const logs = () => [output.join(''), ...['error.log', 'access.log'].map((name) => readIfPresent(file(name)))].join('\n');
  try {
    await waitForPort(port, child, logs);
  } catch (error) {
    await stop(child);
    fs.rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    config,
    logs,
    routes: () => parseRoutes(readIfPresent(file('access.log'))),
    async close() {
      await stop(child);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

function parseRoutes(log: string): RoutedRequest[] {
  return log.split('\n').filter(Boolean).map((line) => {
    const [method = '', uri = '', status = '0', ...upstreams] = line.split(' ');
    // After a retry nginx lists every server tried ("a, b"); the last one answered.
    return { method, uri, status: Number(status), upstream: upstreams.join(' ').split(', ').at(-1) ?? '-' };
  });
}

function readIfPresent(file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function waitForPort(port: number, child: ChildProcess, logs: () => string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`nginx exited early (${child.exitCode}):\n${logs()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nginx did not listen on ${port}:\n${logs()}`);
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    // SIGTERM is nginx's fast shutdown: open streams are cut, which is what a test's teardown wants.
    child.kill('SIGTERM');
  });
}
