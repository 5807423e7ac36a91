// Every metric the apps export, by the app that owns it. Names, labels and meanings are listed in the
// README ("Metrics"). Label values come from closed sets only (route templates, provider ids, states),
// so no request can add a time series. Values that change on every chunk or every request are kept in
// plain numbers by their owner and read at scrape time (`collect`), so the hot path pays no hashing.
import { Counter, Gauge } from 'prom-client';
import { cellCounter, cellHistogram } from './metric-cells.js';
import { metricGroup, type MetricsRegistry } from './metrics-registry.js';

const PREFIX = 'voice_router_';

/** Requests by route template, status and provider (data plane and control plane). */
export function httpMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'http', (register) => ({
    requests: cellCounter({
      name: `${PREFIX}http_requests_total`,
      help: 'Responses by route template, HTTP status and provider (empty when the request named none); 499: the client left before any response.',
      labelNames: ['route', 'status', 'provider'] as const,
      register,
    }),
  }));
}

/** Seconds from a speech request's arrival to its first audio byte handed to the socket. */
const FIRST_AUDIO_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export interface SpeechStreamCounters {
  /** Responses that have sent audio and not yet ended. */
  activeStreams: number;
  /** Audio bytes handed to the HTTP server. */
  audioBytes: number;
  /** write() calls the server answered with backpressure. */
  backpressureEvents: number;
  /** Bytes held in user space right now, summed over open streams (written while the socket was full). */
  backlogBytes: number;
  /** The largest backlog one response has held since the process started. */
  maxBacklogBytes: number;
}

export function speechMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'speech', (register) => {
    const counters: SpeechStreamCounters = { activeStreams: 0, audioBytes: 0, backpressureEvents: 0, backlogBytes: 0, maxBacklogBytes: 0 };
    let inFlight = () => 0;
    const readCounter = (name: string, help: string, read: () => number) => new Counter({
      name, help, registers: [register],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
    const readGauge = (name: string, help: string, read: () => number) => new Gauge({
      name, help, registers: [register],
      collect() {
        this.set(read());
      },
    });
    readGauge(`${PREFIX}speech_requests_in_flight`, 'Speech requests being served by this process (admitted, not yet ended).', () => inFlight());
    readGauge(`${PREFIX}speech_streams_active`, 'Speech responses that have sent audio and not yet ended.', () => counters.activeStreams);
    readCounter(`${PREFIX}speech_audio_bytes_total`, 'Audio bytes handed to the HTTP server.', () => counters.audioBytes);
    readCounter(`${PREFIX}speech_backpressure_total`, 'Audio writes the HTTP server answered with backpressure (slow clients).', () => counters.backpressureEvents);
    readGauge(`${PREFIX}speech_backlog_bytes`, 'Audio held in user space right now because clients read slower than the provider sends, summed over streams.', () => counters.backlogBytes);
    readGauge(`${PREFIX}speech_backlog_max_bytes`, 'The largest backlog a single speech response has held since the process started.', () => counters.maxBacklogBytes);
    return {
      counters,
      firstAudio: cellHistogram({
        name: `${PREFIX}time_to_first_audio_seconds`,
        help: 'Seconds from a speech request\'s arrival to its first audio byte written to the client.',
        labelNames: ['provider'] as const,
        buckets: FIRST_AUDIO_BUCKETS,
        register,
      }),
      setInFlightSource(read: () => number) {
        inFlight = read;
      },
    };
  });
}

export type BreakerStateName = 'closed' | 'open' | 'half_open';
const BREAKER_STATES: readonly BreakerStateName[] = ['closed', 'open', 'half_open'];

export function upstreamMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'upstream', (register) => {
    let breakers: () => Array<{ provider: string; state: BreakerStateName }> = () => [];
    new Gauge({
      name: `${PREFIX}breaker_state`,
      help: 'Each configured provider\'s circuit breaker in this process: 1 for its current state (closed, open, half_open), 0 for the others.',
      labelNames: ['provider', 'state'] as const,
      registers: [register],
      collect() {
        this.reset();
        for (const { provider, state } of breakers()) {
          for (const candidate of BREAKER_STATES) this.set({ provider, state: candidate }, candidate === state ? 1 : 0);
        }
      },
    });
    return {
      attempts: cellCounter({
        name: `${PREFIX}upstream_attempts_total`,
        help: 'Upstream synthesis attempts by provider and outcome: ok (audio began), the failure category, aborted, or rejected (the provider refused the request as invalid).',
        labelNames: ['provider', 'outcome'] as const,
        register,
      }),
      retries: cellCounter({
        name: `${PREFIX}upstream_retries_total`,
        help: 'Upstream attempts that were retries of a failed attempt (every attempt after the first of a request).',
        labelNames: ['provider'] as const,
        register,
      }),
      breakerOpened: cellCounter({
        name: `${PREFIX}breaker_opened_total`,
        help: 'Times a provider\'s circuit breaker opened in this process.',
        labelNames: ['provider'] as const,
        register,
      }),
      setBreakerSource(read: () => Array<{ provider: string; state: BreakerStateName }>) {
        breakers = read;
      },
    };
  });
}

export type LimitRefusalKind = 'rate' | 'concurrency' | 'daily_spend' | 'monthly_spend';

export function limitMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'limits', (register) => ({
    refusals: cellCounter({
      name: `${PREFIX}limit_refusals_total`,
      help: 'Requests refused by a per-key limit: rate (429), concurrency (429), daily_spend or monthly_spend (402).',
      labelNames: ['kind'] as const,
      register,
    }),
  }));
}

export interface SettlementBacklogStats {
  pending: number;
  /** Age of the oldest pending settlement, 0 when none. */
  oldestAgeMs: number;
}

export interface SettlementQueueStats {
  waiting: number;
  delayed: number;
  active: number;
  failed: number;
  /** Age of the oldest job still waiting or delayed, 0 when none. */
  oldestAgeMs: number;
}

/** Settlements this process decided and has not yet made durable (every process that serves speech). */
export function settlerMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'settler', (register) => {
    let read: () => SettlementBacklogStats = () => ({ pending: 0, oldestAgeMs: 0 });
    new Gauge({
      name: `${PREFIX}settlements_pending`,
      help: 'Settlements (commit or void) decided by this process and not yet durable: being enqueued, or held while the database or Redis is down.',
      registers: [register],
      collect() {
        this.set(read().pending);
      },
    });
    new Gauge({
      name: `${PREFIX}settlements_pending_oldest_seconds`,
      help: 'Age of the oldest of those pending settlements (0 when none).',
      registers: [register],
      collect() {
        this.set(read().oldestAgeMs / 1000);
      },
    });
    return {
      setSource(source: () => SettlementBacklogStats) {
        read = source;
      },
    };
  });
}

export interface AllowanceStats {
  allowances: number;
  unspentMicros: bigint;
  opened: number;
  payments: number;
}

/** Allowances a data plane holds for hot accounts (README, Allowances). */
export function allowanceMetrics(registry: MetricsRegistry) {
  return metricGroup(registry, 'allowances', (register) => {
    let read: () => AllowanceStats = () => ({ allowances: 0, unspentMicros: 0n, opened: 0, payments: 0 });
    new Gauge({
      name: `${PREFIX}allowances_held`,
      help: 'Allowances this data plane holds (open, or returned in part while requests paid from them stream).',
      registers: [register],
      collect() {
        this.set(read().allowances);
      },
    });
    new Gauge({
      name: `${PREFIX}allowances_unspent_micros`,
      help: 'Money those allowances hold that no request has taken yet (micro-dollars; it counts in the wallets\' reservedMicros).',
      registers: [register],
      collect() {
        this.set(Number(read().unspentMicros));
      },
    });
    new Counter({
      name: `${PREFIX}allowances_opened_total`,
      help: 'Allowances this data plane has taken (one database round trip each).',
      registers: [register],
      collect() {
        this.reset();
        this.inc(read().opened);
      },
    });
    new Counter({
      name: `${PREFIX}allowance_payments_total`,
      help: 'Speech requests paid from an allowance (no database round trip of their own).',
      registers: [register],
      collect() {
        this.reset();
        this.inc(read().payments);
      },
    });
    return {
      setSource(source: () => AllowanceStats) {
        read = source;
      },
    };
  });
}

/** The BullMQ settlement queue (the worker, or the embedded process with REDIS_URL) and what the workers applied. */
export function settlementQueueMetrics(registry: MetricsRegistry, logger?: { warn(message: string, fields?: Record<string, unknown>): void }) {
  return metricGroup(registry, 'settlement-queue', (register) => {
    let read: (() => Promise<SettlementQueueStats>) | undefined;
    // One read per scrape serves both gauges below.
    let pending: Promise<SettlementQueueStats | undefined> | undefined;
    const stats = () => {
      pending ??= (read ? read() : Promise.resolve(undefined)).catch((error: unknown) => {
        logger?.warn('cannot read the settlement queue for metrics', { error: (error as Error)?.message ?? String(error) });
        return undefined;
      }).finally(() => setTimeout(() => (pending = undefined), 0));
      return pending;
    };
    new Gauge({
      name: `${PREFIX}settlement_queue_jobs`,
      help: 'Settlement jobs in the BullMQ queue by state (waiting, delayed: retrying after a failure, active, failed: retries used up).',
      labelNames: ['state'] as const,
      registers: [register],
      async collect() {
        const current = await stats();
        if (!current) return;
        for (const state of ['waiting', 'delayed', 'active', 'failed'] as const) this.set({ state }, current[state]);
      },
    });
    new Gauge({
      name: `${PREFIX}settlement_queue_lag_seconds`,
      help: 'Age of the oldest settlement job still waiting or delayed in the queue (0 when it is empty).',
      registers: [register],
      async collect() {
        const current = await stats();
        if (current) this.set(current.oldestAgeMs / 1000);
      },
    });
    return {
      applied: cellCounter({
        name: `${PREFIX}settlements_applied_total`,
        help: 'Settlement jobs applied to the ledger by this process\'s queue worker, by action (commit, void) and outcome (settled, already_settled, not_found).',
        labelNames: ['action', 'outcome'] as const,
        register,
      }),
      setSource(source: () => Promise<SettlementQueueStats>) {
        read = source;
      },
    };
  });
}

export interface OpenReservationStats {
  open: number;
  /** Age of the oldest pending reservation, 0 when none. */
  oldestAgeSeconds: number;
}

/** Pending reservations in the ledger and the reaper (every process that runs the reaper). */
export function reservationMetrics(registry: MetricsRegistry, logger?: { warn(message: string, fields?: Record<string, unknown>): void }) {
  return metricGroup(registry, 'reservations', (register) => {
    let read: (() => Promise<OpenReservationStats>) | undefined;
    let pending: Promise<OpenReservationStats | undefined> | undefined;
    const stats = () => {
      pending ??= (read ? read() : Promise.resolve(undefined)).catch((error: unknown) => {
        logger?.warn('cannot read open reservations for metrics', { error: (error as Error)?.message ?? String(error) });
        return undefined;
      }).finally(() => setTimeout(() => (pending = undefined), 0));
      return pending;
    };
    new Gauge({
      name: `${PREFIX}reservations_open`,
      help: 'Reservations still pending in the ledger (held credit not yet committed or voided), all processes together.',
      registers: [register],
      async collect() {
        const current = await stats();
        if (current) this.set(current.open);
      },
    });
    new Gauge({
      name: `${PREFIX}reservations_oldest_open_seconds`,
      help: 'Age of the oldest pending reservation (0 when none); the reaper voids those past RESERVATION_REAP_AFTER_MS.',
      registers: [register],
      async collect() {
        const current = await stats();
        if (current) this.set(current.oldestAgeSeconds);
      },
    });
    return {
      reaperVoids: new Counter({
        name: `${PREFIX}reaper_voids_total`,
        help: 'Stale reservations voided by this process\'s reaper.',
        registers: [register],
      }),
      setSource(source: () => Promise<OpenReservationStats>) {
        read = source;
      },
    };
  });
}

/** Which HTTP server the data plane runs: a constant 1 whose labels say it. */
export function serverInfoMetric(registry: MetricsRegistry) {
  return metricGroup(registry, 'server-info', (register) => new Gauge({
    name: `${PREFIX}http_server_info`,
    help: 'The data plane\'s HTTP server: implementation (uws-native or node-http), the package that provides it, its version, and the Node version.',
    labelNames: ['implementation', 'package', 'version', 'node'] as const,
    registers: [register],
  }));
}
