// Short-request throughput with autocannon: a fixed number of keep-alive connections, each sending the
// next request as soon as the previous response ended. Counts only complete 2xx responses as done.
import autocannon from 'autocannon';
import type { RequestSpec } from './targets.js';

export interface ThroughputResult {
  requests: number;
  non2xx: number;
  errors: number;
  seconds: number;
  requestsPerSecond: number;
  latencyMs: { p50: number; p90: number; p99: number };
}

export function runThroughput(
  baseUrl: string, specFor: (connection: number) => RequestSpec, connections: number, seconds: number,
): Promise<ThroughputResult> {
  const spec = specFor(0);
  let connection = 0;
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: baseUrl + spec.path,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 30,
        // Each connection sends as its own client (the router's: its own account and key).
        setupClient: (client: { setHeaders(headers: Record<string, string>): void }) => client.setHeaders(specFor(connection++).headers),
      },
      (error, result) => {
        if (error) return reject(error);
        const ok = result['2xx'];
        const elapsed = result.duration;
        resolve({
          requests: ok,
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          seconds: elapsed,
          requestsPerSecond: ok / elapsed,
          latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99 },
        });
      },
    );
  });
}
