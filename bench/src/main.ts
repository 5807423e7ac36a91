// `npm run bench [-- --quick]`: starts the fake upstream, the reference proxies and the router in both
// run modes, runs the eight scenarios, and writes the report, latest.json and the charts.
import { parseArgs } from 'node:util';
import { createRunScope, findBackingServices, type RunScope } from './infra/backing-services.js';
import { machineSummary, setIdleBetweenRounds } from './infra/proc-stats.js';
import { stopChildrenOnSignals } from './infra/managed-process.js';
import { providerEnvironment, startReferences } from './infra/references.js';
import type { SystemName, Target } from './load/targets.js';
import { OBSERVABILITY_OFF, setupEmbedded, setupScaled, startBaselineTwin, startNodeLineTwin, startTwin, type LimitsOffTwin, type ModeContext } from './mode-setup.js';
import { waitForQuietStarts } from './infra/router-system.js';
import { benchOptions, dataPlaneOptions, ledgerOnlyOptions, limitsOnlyOptions, UPSTREAM_PACING } from './options.js';
import { nodeLineBinary } from './infra/node-lines.js';
import { gitState, writeResults, type BenchResults } from './report/write-results.js';
import { runActivity } from './scenarios/activity.js';
import { runAddedTtfb } from './scenarios/added-ttfb.js';
import { startProfiling, type ProfileResult, type ProfilingSession } from './scenarios/cpu-profile.js';
import { runHotWallet } from './scenarios/hot-wallet.js';
import { measureLedgerAlone } from './scenarios/ledger-alone.js';
import { runSettlement } from './scenarios/settlement.js';
import { runSlowStreams } from './scenarios/slow-streams.js';
import { runThroughputScenario } from './scenarios/throughput.js';
import { runTranscodeTtfb } from './scenarios/transcode-ttfb.js';
import { runPairedTtfb } from './scenarios/paired-ttfb.js';
import { runPairedThroughput } from './scenarios/paired-throughput.js';
import { baselineTarget, nodeLineTarget, referenceTargets, routerTarget, twinTarget } from './systems.js';
import { limitsOverhead, metricsOverhead } from './report/limits-overhead.js';
import { routerSpeech } from './load/targets.js';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'limits-only': { type: 'boolean', default: false },
    'metrics-only': { type: 'boolean', default: false },
    'ledger-only': { type: 'boolean', default: false },
    'memory-only': { type: 'boolean', default: false },
    'skip-settlement': { type: 'boolean', default: false },
    'data-plane': { type: 'boolean', default: false },
    'no-node24': { type: 'boolean', default: false },
    streams: { type: 'string' },
    'baseline-data-plane': { type: 'string' },
  },
});
/** `--limits-only`: just the routers beside their KEY_LIMITS=off twins, one stream and short requests, more rounds. */
const limitsOnly = values['limits-only']!;
/** `--metrics-only`: the same beside METRICS_ENABLED=false twins (metrics and logging on vs off, one run). */
const metricsOnly = values['metrics-only']!;
/** `--ledger-only`: just the money scenarios, 5 (one hot wallet) and 6 (settlement backlog), on the full sizes. */
const ledgerOnly = values['ledger-only']!;
/** `--data-plane [--streams=500]`: scenarios 1-3 only, references and routers, each router also on Node 24. */
const dataPlaneOnly = values['data-plane']!;
/** `--memory-only`: just scenario 4 (slow clients: memory and backpressure), references and routers. */
const memoryOnly = values['memory-only']!;
const partial = limitsOnly || metricsOnly;
const base = benchOptions(values.quick!);
const options = partial ? limitsOnlyOptions(base)
  : dataPlaneOnly ? dataPlaneOptions(base, values.streams ? Number(values.streams) : undefined)
    : ledgerOnly || memoryOnly ? ledgerOnlyOptions(base) : base;
waitForQuietStarts(options.waitForQuietStart);
setIdleBetweenRounds(!options.quick);
const started = performance.now();
const log = (line: string) => process.stdout.write(`[${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${line}\n`);

const results: BenchResults = {
  startedAt: new Date().toISOString(),
  ...gitState(),
  quick: options.quick,
  limitsOnly: limitsOnly || ledgerOnly || memoryOnly,
  metricsOnly,
  dataPlaneOnly,
  machine: machineSummary(),
  upstream: UPSTREAM_PACING,
  notes: [],
  errors: [],
  scenarios: {},
};

/** One scenario's failure is reported, not fatal: the rest still run and the report still appears. */
async function scenario<T>(name: string, run: () => Promise<T>): Promise<T | undefined> {
  log(`${name}…`);
  try {
    return await run();
  } catch (error) {
    const message = `${name} failed: ${(error as Error).stack ?? error}`;
    results.errors.push(message.slice(0, 2000));
    log(message);
    return undefined;
  }
}

const references = await startReferences(UPSTREAM_PACING);
const environment = providerEnvironment(references);
const backing = await findBackingServices();
if (backing.note) {
  results.notes.push(backing.note);
  log(backing.note);
}
let scope: RunScope | undefined;
/** The Node 24 binary, once its twins started: the profiles then cover each data plane on Node 24 too. */
let node24: string | undefined;
const modes: ModeContext[] = [];
const twins: LimitsOffTwin[] = [];
stopChildrenOnSignals(async () => {
  await scope?.cleanup();
});
try {
  log('starting the router (embedded and scaled-out) and seeding the activity accounts…');
  scope = backing.services ? await createRunScope(backing.services) : undefined;
  const [embedded, scaled] = await Promise.all([
    setupEmbedded(environment, options.activity.rows, options.loadAccounts),
    backing.services && scope ? setupScaled(environment, backing.services, scope, options.activity.rows, options.loadAccounts) : Promise.resolve(undefined),
  ]);
  modes.push(embedded, ...(scaled ? [scaled] : []));
  const routers: Target[] = modes.map((mode) => routerTarget(mode, references));
  const referenceList = referenceTargets(references).filter((target) => !dataPlaneOnly || target.system !== 'gateway');
  const all = [...(partial ? [] : referenceList), ...routers];
  // Scenarios 1-2 also run each router beside a twin with KEY_LIMITS=off (the limit checks' price), one
  // with metrics and logging off (their price), and one with its data plane on Node 24 (the node:http
  // adapter: no native uWS build loads there).
  const twinTargets: Target[] = [];
  for (const mode of ledgerOnly || dataPlaneOnly || memoryOnly ? [] : modes) {
    // The "on" side of the twin comparisons: started like the twins, nothing switched off.
    const reference = await startTwin(mode, environment, options.loadAccounts, {});
    twins.push(reference);
    twinTargets.push(twinTarget(mode, reference, references, 'ref'));
    if (!metricsOnly) {
      const twin = await startTwin(mode, environment, options.loadAccounts);
      twins.push(twin);
      twinTargets.push(twinTarget(mode, twin, references, 'nolimits'));
    }
    if (!limitsOnly) {
      const twin = await startTwin(mode, environment, options.loadAccounts, OBSERVABILITY_OFF);
      twins.push(twin);
      twinTargets.push(twinTarget(mode, twin, references, 'nometrics'));
    }
  }
  if (!partial && !ledgerOnly && !values['no-node24']) {
    try {
      node24 = await nodeLineBinary('24');
      // Scenario 4 restarts the routers' own data planes on Node 24 (below); no twins needed.
      for (const mode of memoryOnly ? [] : modes) {
        const twin = await startNodeLineTwin(mode, environment, options.loadAccounts, node24);
        twins.push(twin);
        twinTargets.push(nodeLineTarget(mode, twin, references));
      }
    } catch (error) {
      const note = `the data plane on Node 24 was not measured: ${(error as Error).message.split('\n')[0]}`;
      results.notes.push(note);
      log(note);
    }
  }
  const baselineEntry = values['baseline-data-plane'];
  for (const mode of baselineEntry ? modes : []) {
    const twin = await startBaselineTwin(mode, baselineEntry!);
    if (!twin) continue;
    twins.push(twin);
    twinTargets.push(baselineTarget(mode, twin, references));
  }
  log(`ready: ${[...all, ...twinTargets].map((target) => target.system).join(', ')}`);

  if (!ledgerOnly && !memoryOnly) results.scenarios.addedTtfb = await scenario('1. added time to first byte', () => runAddedTtfb([...all, ...twinTargets], options.ttfbLevels, options, log));
  if (!ledgerOnly && !memoryOnly) results.scenarios.throughput = await scenario('2-3. throughput and CPU per request', () =>
    runThroughputScenario([...all, ...twinTargets], { ...options.throughput, warmupSeconds: options.warmupSeconds }, log));
  // Each router against each of its feature-off twins, request by request (scenarios/paired-ttfb.ts).
  const pairs = routers.flatMap((router) => {
    const on = twinTargets.find((target) => target.system === `${router.system}-ref`) ?? router;
    return twinTargets
      .filter((off) => off.system === `${router.system}-nolimits` || off.system === `${router.system}-nometrics`)
      .map((off) => ({ on, off }));
  });
  if (pairs.length) {
    results.scenarios.pairedTtfb = await scenario('1b. added time to first byte at one stream, in pairs', () =>
      runPairedTtfb(pairs, { seconds: options.pairedSeconds, warmupRequests: options.quick ? 5 : 50 }, log));
    // The same pairs in alternating slices of short requests (scenarios/paired-throughput.ts).
    results.scenarios.pairedThroughput = await scenario('2p. throughput of each router beside its feature-off twin, in alternating slices', () =>
      runPairedThroughput(pairs, { connections: options.throughput.connections, ...options.pairedThroughput, warmupSeconds: options.warmupSeconds }, log));
  }
  const paired = { ttfb: results.scenarios.pairedTtfb, throughput: results.scenarios.pairedThroughput };
  results.scenarios.limits = limitsOverhead(results.scenarios.addedTtfb, results.scenarios.throughput, paired);
  results.scenarios.metrics = metricsOverhead(results.scenarios.addedTtfb, results.scenarios.throughput, paired);
  for (const row of results.scenarios.limits) {
    log(`  limits ${row.mode}: +${row.addedTtfbP50Ms} ms p50 TTFB at 1 stream, ${row.throughputCostPercent} % of throughput`);
  }
  for (const row of results.scenarios.metrics) {
    log(`  metrics and logging ${row.mode}: ${row.requestsPerSecondOn} req/s on, ${row.requestsPerSecondOff} off: ${row.throughputCostPercent} % of throughput`
      + ` (data plane ${row.cpuMicrosPerRequestOn} vs ${row.cpuMicrosPerRequestOff} µs/request)`);
  }
  await Promise.all(twins.splice(0).map((twin) => twin.stop()));
  /**
   * Profiles every data plane on this Node line, or on Node 24 given its binary: each restarted with
   * --cpu-prof and loaded with short requests (scenarios/cpu-profile.ts). The session is returned open
   * (the quick run keeps the last one through scenario 4).
   */
  const profileDataPlanes = (node24Binary?: string) => startProfiling(
    modes.map((mode) => ({
      router: mode.router,
      specFor: (client: number) => routerSpeech(mode.loadAccounts[client % mode.loadAccounts.length]!.key, 'short'),
      ...(node24Binary ? { launch: { nodeBinary: node24Binary }, label: `${mode.router.mode} Node 24` } : {}),
    })),
    { connections: options.throughput.connections, seconds: options.profileSeconds, warmupSeconds: options.profileWarmupSeconds },
  );
  /**
   * The Node 24 profiles (node:http adapter), taken before the Node 20 ones so that those can stay open. If
   * they fail, the report says so and the Node 20 ones (which restart every data plane) are still taken.
   */
  const node24Profiles = async (): Promise<ProfileResult[]> => {
    if (!node24) return [];
    try {
      return await (await profileDataPlanes(node24)).finish();
    } catch (error) {
      const note = `the data planes on Node 24 were not profiled: ${(error as Error).message.split('\n')[0]}`;
      results.notes.push(note);
      log(note);
      return [];
    }
  };
  if (dataPlaneOnly) {
    await scenario('3. CPU profiles of the data planes', async () => {
      const onNode24 = await node24Profiles();
      results.scenarios.profiles = [...await (await profileDataPlanes()).finish(), ...onNode24];
    });
  }
  if (!partial && !dataPlaneOnly) {
    // The full run measures the modes one at a time; the quick run, whose numbers are not read, overlaps them.
    const eachMode = async <T>(run: (mode: ModeContext) => Promise<T>): Promise<T[]> => {
      if (options.quick) return Promise.all(modes.map(run));
      const outcomes: T[] = [];
      for (const mode of modes) outcomes.push(await run(mode));
      return outcomes;
    };
    if (!memoryOnly) results.scenarios.hotWallet = (await eachMode(async (mode) => {
      const row = await scenario(`5. hot wallet (${mode.router.mode})`, () => runHotWallet(mode.router, mode.loadAccounts[0]!.key, mode.hotWallet, options.hotWallet));
      if (!row) return undefined;
      // Beside it, the same wallet rule without HTTP: what the ledger alone takes, on a new database of the mode's kind.
      const reservations = options.hotWallet.ledgerReservations;
      const alone = await scenario(`5. the ledger alone, ${reservations} reservations (${mode.router.mode})`, () =>
        measureLedgerAlone(mode.router.databaseUrl, { reservations, concurrency: options.hotWallet.concurrency }));
      if (alone) log(`  the ledger alone (${mode.router.mode}): ${alone.perSecond} reservations/s, books ${alone.exact ? 'exact' : 'WRONG'}`);
      return alone ? { ...row, ledgerAlone: { ...alone, reservations } } : row;
    })).flatMap((row) => (row ? [row] : []));
    if (!ledgerOnly && !memoryOnly) results.scenarios.activity = (await eachMode(async (mode) => {
      const rows = await scenario(`7. activity reads (${mode.router.mode})`, () =>
        runActivity(mode.router.mode, mode.router.baseUrl, { key: mode.activity.key, sessionToken: mode.activity.sessionToken }, mode.activity.ledgerRows, options.activity.requests));
      return (rows ?? []).map((row) => ({ ...row, seedSeconds: Math.round(mode.activity.seedSeconds) }));
    })).flat();
    // The full run profiles on its own and then restarts the data planes without the profiler (which
    // also starts the slow-client scenario's backlog maxima afresh); the quick run profiles through it.
    let profiling: ProfilingSession | undefined;
    let onNode24: ProfileResult[] = [];
    if (!ledgerOnly && !memoryOnly) await scenario('3. CPU profiles of the data planes', async () => {
      onNode24 = await node24Profiles();
      profiling = await profileDataPlanes();
      if (options.quick) return;
      results.scenarios.profiles = [...await profiling.finish(), ...onNode24];
      profiling = undefined;
      await Promise.all(modes.map((mode) => mode.router.startDataPlane({})));
    });
    results.scenarios.slowStreams = [];
    for (const target of ledgerOnly ? [] : all.filter((item) => item.system !== 'direct')) {
      const row = await scenario(`4. ${options.slowStreams.streams} slow streams (${target.system})`, () => runSlowStreams(target, options.slowStreams, options.slowStreamPauseMs));
      if (row) results.scenarios.slowStreams.push(row);
    }
    if (profiling) {
      const session = profiling;
      results.scenarios.profiles = await scenario('3. CPU profiles (quick: finished after scenario 4)', async () => [...await session.finish(), ...onNode24]);
    }
    // Scenario 4 on Node 24 (the node:http adapter where no native build loads): each router's own data
    // plane restarted on that binary with the same flags, measured like the rows above, then restarted on
    // this Node line again for the scenarios that follow.
    for (const mode of ledgerOnly || !node24 ? [] : modes) {
      const binary = node24;
      const system: SystemName = mode.router.mode === 'embedded' ? 'router-embedded-node24' : 'router-scaled-node24';
      const row = await scenario(`4. ${options.slowStreams.streams} slow streams (${system})`, async () => {
        await mode.router.stopDataPlane();
        await mode.router.startDataPlane({ nodeBinary: binary });
        try {
          return await runSlowStreams({ ...routerTarget(mode, references), system }, options.slowStreams, options.slowStreamPauseMs);
        } finally {
          await mode.router.stopDataPlane();
          await mode.router.startDataPlane({});
        }
      });
      if (row) results.scenarios.slowStreams.push(row);
    }
    const scaledMode = modes.find((mode) => mode.router.mode === 'scaled');
    if (memoryOnly) {
      // Scenario 4 only.
    } else if (values['skip-settlement']) {
      results.notes.push('scenario 6 skipped (--skip-settlement)');
    } else if (scaledMode && backing.services && scope) {
      const services = backing.services;
      const prefix = `${scope.redisPrefix}-settle`;
      results.scenarios.settlement = await scenario(`6. settlement of ${options.settlementJobs} jobs`, () =>
        runSettlement(scaledMode.router, scaledMode.loadAccounts, services.redisUrl, prefix, options.settlementJobs, log));
    } else {
      results.notes.push('scenario 6 (settlement through the worker) needs the scaled-out mode: skipped');
    }
    if (!memoryOnly) results.scenarios.transcodeTtfb = await scenario('8. first byte through output conversion (WAV 48 kHz → MP3)', () =>
      runTranscodeTtfb(options.transcodeRequests, log));
  }
} finally {
  log('stopping…');
  await Promise.all(twins.map((twin) => twin.stop().catch(() => undefined)));
  await Promise.all(modes.map((mode) => mode.router.stop().catch(() => undefined)));
  await references.stop();
  await scope?.cleanup();
}
results.durationSeconds = Math.round((performance.now() - started) / 1000);
const written = writeResults(results);
log(`done in ${results.durationSeconds} s: ${written.join(', ')}`);
process.exit(results.errors.length ? 1 : 0);
