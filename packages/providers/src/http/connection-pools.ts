// One undici Pool per upstream origin, shared by every adapter of a registry: keep-alive connections,
// no pipelining (a slow audio stream must not hold up the requests queued behind it).

import { Pool } from 'undici';

export interface ConnectionPoolOptions {
  /** Concurrent connections per origin; bounds simultaneous upstream requests (streams beyond it queue). Default 1024. */
  connectionsPerOrigin?: number;
  /** Idle keep-alive time before a socket is closed. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /** TCP + TLS handshake limit; the first-byte deadline usually fires first. Default 10 s. */
  connectTimeoutMs?: number;
}

/** How long close() lets in-flight streams finish before destroying the sockets. */
const CLOSE_GRACE_MS = 2000;

export class ConnectionPools {
  readonly #pools = new Map<string, Pool>();
  readonly #options: Required<ConnectionPoolOptions>;
  #closed = false;

  constructor(options: ConnectionPoolOptions = {}) {
    this.#options = {
      connectionsPerOrigin: options.connectionsPerOrigin ?? 1024,
      keepAliveTimeoutMs: options.keepAliveTimeoutMs ?? 30_000,
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
    };
  }

  /** `origin` as produced by `new URL(...).origin`. */
  get(origin: string): Pool {
    if (this.#closed) throw new Error('connection pools are closed');
    let pool = this.#pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, {
        connections: this.#options.connectionsPerOrigin,
        pipelining: 1,
        keepAliveTimeout: this.#options.keepAliveTimeoutMs,
        connect: { timeout: this.#options.connectTimeoutMs },
      });
      this.#pools.set(origin, pool);
    }
    return pool;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pools = [...this.#pools.values()];
    this.#pools.clear();
    await Promise.all(
      pools.map(async (pool) => {
        let timer: NodeJS.Timeout | undefined;
        const grace = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), CLOSE_GRACE_MS);
        });
        const outcome = await Promise.race([pool.close().then(() => 'closed' as const), grace]);
        clearTimeout(timer);
        if (outcome === 'timeout') await pool.destroy();
      }),
    );
  }
}
