// Closed-loop streaming load with undici: `concurrency` clients each send a request, read the whole
// body, and start the next. Time to first byte is measured per request, from just before the request
// is written to the first body chunk, on the client's clock.
import { Pool } from 'undici';
import type { RequestSpec } from './targets.js';

export interface StreamSample {
  ttfbMs: number;
  totalMs: number;
  bytes: number;
}

export interface StreamLoadResult {
  samples: StreamSample[];
  errors: number;
  statuses: Record<string, number>;
  seconds: number;
}

export class StreamClient {
  readonly pool: Pool;

  constructor(readonly baseUrl: string, readonly connections: number) {
    this.pool = new Pool(baseUrl, { connections, pipelining: 1, keepAliveTimeout: 60_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
  }

  async once(spec: RequestSpec): Promise<{ status: number; sample?: StreamSample }> {
    const started = performance.now();
    const response = await this.pool.request({ method: spec.method, path: spec.path, headers: spec.headers, body: spec.body });
    let firstByteAt: number | undefined;
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      firstByteAt ??= performance.now();
      bytes += chunk.length;
    }
    if (response.statusCode !== 200 || firstByteAt === undefined) return { status: response.statusCode };
    return { status: 200, sample: { ttfbMs: firstByteAt - started, totalMs: performance.now() - started, bytes } };
  }

  /** Runs for `seconds`; each client stops after the deadline passes. */
  async run(specFor: (client: number) => RequestSpec, concurrency: number, seconds: number): Promise<StreamLoadResult> {
    const result: StreamLoadResult = { samples: [], errors: 0, statuses: {}, seconds: 0 };
    const started = performance.now();
    const deadline = started + seconds * 1000;
    const client = async (_: unknown, index: number) => {
      const spec = specFor(index);
      while (performance.now() < deadline) {
        try {
          const { status, sample } = await this.once(spec);
          result.statuses[status] = (result.statuses[status] ?? 0) + 1;
          if (sample) result.samples.push(sample);
          else result.errors += 1;
        } catch {
          result.errors += 1;
          result.statuses.network = (result.statuses.network ?? 0) + 1;
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, client));
    result.seconds = (performance.now() - started) / 1000;
    return result;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
