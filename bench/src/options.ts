// How long and how hard each scenario runs: the full suite (about 7 minutes on 2 cores) or the quick
// form for CI (under a minute, every code path, numbers not meant to be read).

export interface TtfbLevel {
  concurrency: number;
  size: 'short' | 'stream';
  seconds: number;
  rounds: number;
}

export interface BenchOptions {
  quick: boolean;
  /** Funded accounts the load clients spread over. */
  loadAccounts: number;
  /** Wait for a (re)started data plane to finish its start-up work before loading it. */
  waitForQuietStart: boolean;
  /** Slow-client scenario: pause before and after each system. */
  slowStreamPauseMs: number;
  warmupSeconds: number;
  /** Scenario 1: the opening slice of every round, reported apart (after the pause between rounds). */
  roundWarmupSeconds: number;
  ttfbLevels: TtfbLevel[];
  throughput: { connections: number; seconds: number; rounds: number };
  profileSeconds: number;
  /**
   * Scenario 3's profiles: load before the profiled window, on the freshly restarted data plane. Its first
   * seconds of load are V8 compiling what the load makes hot (in the embedded process most of all PGlite's
   * WebAssembly: with 2 s it served 2,610 requests in the 5 s window, with 12 s 14,962; session 46).
   */
  profileWarmupSeconds: number;
  slowStreams: { streams: number; readBytes: number; intervalMs: number; windowSeconds: number };
  /**
   * Scenario 5; `ledgerReservations`: what the wallet of its ledger-alone comparison is funded for. The
   * warm-up on another account runs in slices of `warmupSliceSeconds` until two in a row agree within a
   * tenth, at most `warmupMaxSeconds` (see settledRate in scenarios/hot-wallet.ts).
   */
  hotWallet: { concurrency: number; seconds: number; ledgerReservations: number; warmupSliceSeconds: number; warmupMaxSeconds: number };
  settlementJobs: number;
  activity: { rows: number; requests: number };
  /** Scenario 8: requests per system (direct MP3, WAV → MP3, WAV → pcm). */
  transcodeRequests: number;
  /** Scenario 1b: seconds of alternating requests per router and feature-off twin. */
  pairedSeconds: number;
  /** Scenario 2p: alternating slices of short requests per router and feature-off twin (slices per side; autocannon runs whole seconds). */
  pairedThroughput: { slices: number; sliceSeconds: number };
}

export const UPSTREAM_PACING = { firstByteDelayMs: 0, chunkBytes: 8192, chunkIntervalMs: 50 };

export function benchOptions(quick: boolean): BenchOptions {
  if (quick) {
    return {
      quick,
      loadAccounts: 16,
      waitForQuietStart: false,
      slowStreamPauseMs: 300,
      warmupSeconds: 0,
      roundWarmupSeconds: 0.2,
      // Smaller concurrencies than the full run: the same code paths without waiting out long queues.
      ttfbLevels: [
        { concurrency: 1, size: 'short', seconds: 0.2, rounds: 1 },
        { concurrency: 20, size: 'stream', seconds: 0.4, rounds: 1 },
        { concurrency: 100, size: 'stream', seconds: 0.4, rounds: 1 },
      ],
      throughput: { connections: 64, seconds: 0.6, rounds: 1 },
      profileSeconds: 0.6,
      profileWarmupSeconds: 0,
      slowStreams: { streams: 100, readBytes: 4096, intervalMs: 100, windowSeconds: 0.5 },
      hotWallet: { concurrency: 200, seconds: 1, ledgerReservations: 2_000, warmupSliceSeconds: 1, warmupMaxSeconds: 1 },
      // A backlog this machine drains in a few seconds; the full run uses 100,000.
      settlementJobs: 2_000,
      activity: { rows: 20_000, requests: 30 },
      transcodeRequests: 30,
      pairedSeconds: 0.5,
      pairedThroughput: { slices: 2, sliceSeconds: 1 },
    };
  }
  return {
    quick,
    loadAccounts: 64,
    waitForQuietStart: true,
    slowStreamPauseMs: 1500,
    warmupSeconds: 1,
    roundWarmupSeconds: 1,
    ttfbLevels: [
      { concurrency: 1, size: 'short', seconds: 2, rounds: 3 },
      { concurrency: 50, size: 'stream', seconds: 3, rounds: 2 },
      { concurrency: 500, size: 'stream', seconds: 3, rounds: 2 },
    ],
    throughput: { connections: 64, seconds: 4, rounds: 3 },
    profileSeconds: 5,
    profileWarmupSeconds: 10,
    slowStreams: { streams: 1000, readBytes: 4096, intervalMs: 100, windowSeconds: 10 },
    hotWallet: { concurrency: 200, seconds: 6, ledgerReservations: 30_000, warmupSliceSeconds: 1, warmupMaxSeconds: 15 },
    settlementJobs: 100_000,
    activity: { rows: 1_000_000, requests: 300 },
    transcodeRequests: 200,
    pairedSeconds: 8,
    pairedThroughput: { slices: 16, sliceSeconds: 1 },
  };
}

/** `--limits-only`: scenario 1 at one stream and scenario 2, for the routers and their limits-off twins, in more rounds. */
export function limitsOnlyOptions(base: BenchOptions): BenchOptions {
  return {
    ...base,
    ttfbLevels: [{ concurrency: 1, size: 'short', seconds: base.quick ? 1 : 2, rounds: base.quick ? 4 : 8 }],
    pairedSeconds: base.quick ? 2 : 20,
    pairedThroughput: base.quick ? base.pairedThroughput : { slices: 30, sliceSeconds: 1 },
    throughput: { ...base.throughput, seconds: base.quick ? 2 : 4, rounds: base.quick ? 3 : 6 },
    activity: { ...base.activity, rows: 10 },
  };
}

/** `--ledger-only`: scenarios 5 and 6 at their usual sizes; the activity account gets a token history. */
export function ledgerOnlyOptions(base: BenchOptions): BenchOptions {
  return { ...base, activity: { ...base.activity, rows: 10 } };
}

/**
 * `--data-plane`: what the data plane's own speed shows in: scenario 1 at one stream (and 500 streams
 * with `--streams=500`) and scenario 2 with its CPU split, for the references and the routers, each
 * router also with its data plane on Node 24, then the CPU profiles. No slow clients, hot wallet,
 * settlement or long history.
 */
export function dataPlaneOptions(base: BenchOptions, extraStreams?: number): BenchOptions {
  const seconds = base.quick ? 1 : 2;
  return {
    ...base,
    ttfbLevels: [
      { concurrency: 1, size: 'short', seconds, rounds: base.quick ? 1 : 3 },
      ...(extraStreams ? [{ concurrency: extraStreams, size: 'stream' as const, seconds: seconds + 1, rounds: base.quick ? 1 : 2 }] : []),
    ],
    activity: { ...base.activity, rows: 10 },
  };
}
