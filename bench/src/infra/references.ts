// The fake upstream and the two reference proxies (bare uWS + undici, typical node:http + fetch), each
// in its own process, started before any scenario and shared by all.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, stopAll, type ManagedProcess } from './managed-process.js';

const processEntry = (name: string) => path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'processes', `${name}.js`);

export interface UpstreamPacing {
  firstByteDelayMs: number;
  chunkBytes: number;
  chunkIntervalMs: number;
}

export interface References {
  /** `baseUrl` is the fake's origin; `openaiBaseUrl` ends in /v1, as OPENAI_BASE_URL does. */
  upstream: { baseUrl: string; openaiBaseUrl: string; apiKey: string; process: ManagedProcess; pacing: UpstreamPacing };
  bareProxy: { baseUrl: string; process: ManagedProcess };
  gateway: { baseUrl: string; process: ManagedProcess };
  stop(): Promise<void>;
}

export async function startReferences(pacing: UpstreamPacing): Promise<References> {
  const upstreamProcess = startProcess('fake-upstream', [
    processEntry('fake-upstream'),
    `--first-byte-delay-ms=${pacing.firstByteDelayMs}`, `--chunk-bytes=${pacing.chunkBytes}`, `--chunk-interval-ms=${pacing.chunkIntervalMs}`,
  ], {});
  const upstream = await upstreamProcess.announcement();
  const upstreamUrl = upstream.baseUrl as string;
  const bareProcess = startProcess('bare-proxy', [processEntry('bare-proxy'), `--upstream=${upstreamUrl}`], {});
  const gatewayProcess = startProcess('gateway', [processEntry('gateway'), `--upstream=${upstreamUrl}`], {});
  const [bare, gateway] = await Promise.all([bareProcess.announcement(), gatewayProcess.announcement()]);
  return {
    upstream: { baseUrl: upstreamUrl, openaiBaseUrl: upstream.openaiBaseUrl as string, apiKey: upstream.apiKey as string, process: upstreamProcess, pacing },
    bareProxy: { baseUrl: bare.baseUrl as string, process: bareProcess },
    gateway: { baseUrl: gateway.baseUrl as string, process: gatewayProcess },
    stop: () => stopAll([bareProcess, gatewayProcess, upstreamProcess]),
  };
}

/** What the router processes need to reach the fake as OpenAI. */
export function providerEnvironment(references: References): Record<string, string> {
  return { OPENAI_API_KEY: references.upstream.apiKey, OPENAI_BASE_URL: references.upstream.openaiBaseUrl };
}
