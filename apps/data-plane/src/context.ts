// What every data-plane route is given: the ledger, authentication, providers, settlement, logging.
import type { KeeperReserveResult, ReserveCreditInput, SqlClient } from '@voice-router/ledger';
import type { CatalogState, ProviderRegistry } from '@voice-router/providers';
import type { Settler } from '@voice-router/settlement';
import type { Logger } from '@voice-router/service-kit';
import type { ApiKeyAuthenticator } from './auth/api-key-authenticator.js';
import type { InFlightRequests } from './lifecycle/in-flight.js';
import type { RequestLimits } from './limits/request-limits.js';
import type { DataPlaneMetrics } from './metrics/data-plane-metrics.js';

export interface DataPlaneContext {
  sql: SqlClient;
  auth: ApiKeyAuthenticator;
  registry: ProviderRegistry;
  /** Voice lists and smoke-test times as served (refreshed by this process or followed from the database). */
  catalog: CatalogState;
  /**
   * Reserves a request's cost: from this process's allowance for a hot account (in memory), else on its
   * own in the database. Settlements go through `settler`, which records allowance payments.
   */
  reserve(input: ReserveCreditInput): Promise<KeeperReserveResult>;
  settler: Settler;
  logger: Logger;
  streamMaxDurationMs: number;
  attemptTimeoutMs: number;
  /** Speech requests being served; a drain turns new ones away. */
  inFlight: InFlightRequests;
  /** Per-key rate and concurrency limits; undefined when switched off (KEY_LIMITS=off). */
  limits?: RequestLimits;
  /** What requests record (METRICS_OFF when metrics are off). */
  metrics: DataPlaneMetrics;
}
