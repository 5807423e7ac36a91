// The human report: the targets first, then one table per scenario with the router beside the
// references, the CPU split and profile summary, and the facts a closing note needs.
import type { BenchResults } from './write-results.js';
import { DEFAULT_SETTLEMENT_CONCURRENCY } from '@voice-router/settlement';
import { checkTargets } from './targets-check.js';
import type { ProfileSummary } from './cpu-profile-summary.js';
import type { LimitsOverheadRow } from './limits-overhead.js';
import type { PairedThroughputRow } from '../scenarios/paired-throughput.js';
import type { MemoryComposition, SlowStreamRow } from '../scenarios/slow-streams.js';

type Cell = string | number | undefined;
const table = (header: string[], rows: Cell[][]) =>
  [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map((cell) => (cell === undefined || (typeof cell === 'number' && !Number.isFinite(cell)) ? '—' : String(cell))).join(' | ')} |`)].join('\n');
const fixed = (value: number | undefined, digits = 2) => (value === undefined || !Number.isFinite(value) ? undefined : value.toFixed(digits));
const thousands = (value: number | undefined) => (value === undefined || !Number.isFinite(value) ? undefined : Math.round(value).toLocaleString('en-US'));

export function renderMarkdown(results: BenchResults, charts: { latency: string; throughput: string }): string {
  const { addedTtfb, throughput, profiles, slowStreams, hotWallet, settlement, activity, limits, metrics, transcodeTtfb, pairedThroughput } = results.scenarios;
  const out: string[] = [];
  out.push(`# Voice Router benchmark — ${results.startedAt.slice(0, 10)} (${results.commit}${results.dirty ? ' plus uncommitted changes' : ''})`, '');
  out.push(`${results.quick ? '**Quick run** (CI smoke test: every scenario briefly; the numbers are not meant to be read).' : 'Full run.'} `
    + `Wall time ${results.durationSeconds} s on ${results.machine.cpus} × ${results.machine.cpuModel}, ${results.machine.memoryGiB} GiB, Node ${results.machine.node}, ${results.machine.kernel}. `
    + `Rerun with \`npm run bench\` (\`-- --quick\` for the short form).`, '');
  out.push(`Fake upstream (OpenAI wire format, its own process): first byte after ${results.upstream.firstByteDelayMs} ms, ${results.upstream.chunkBytes}-byte chunks every ${results.upstream.chunkIntervalMs} ms. `
    + 'Everything (load generator, upstream, proxies, router, PostgreSQL, Redis) shares the same cores, so every figure includes the same contention; '
    + `systems are measured in rounds that rotate their order${addedTtfb?.rows.some((row) => row.afterPause) ? ' (in scenario 1 each round opens with a slice reported apart: "After a pause")' : ''}. `
    + 'Percentiles are nearest-rank; *n* is the number of requests behind each figure.', '');
  for (const note of results.notes) out.push(`> ${note}`, '');
  for (const error of results.errors) out.push('```', error, '```', '');

  out.push('## Targets', '');
  out.push(table(['#', 'metric', 'system', 'value', 'target', 'result'], checkTargets(results).map((check) => [
    check.scenario, check.metric, check.system, check.value === undefined ? undefined : `${check.value} ${check.unit}`.trim(), check.target,
    check.met === undefined ? 'not measured' : check.met ? '**met**' : '**missed**',
  ])), '');

  if (addedTtfb) {
    out.push('## 1. Time to first audio byte', '', `![TTFB by concurrency](${charts.latency})`, '');
    for (const concurrency of [...new Set(addedTtfb.rows.map((row) => row.concurrency))]) {
      const rows = addedTtfb.rows.filter((row) => row.concurrency === concurrency);
      const direct = rows.find((row) => row.system === 'direct');
      out.push(`**${concurrency} concurrent stream${concurrency > 1 ? 's' : ''}** (${rows[0]!.size} audio, ~${Math.round(rows[0]!.meanBytes / 1024)} KB per response)`, '');
      out.push(table(['system', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'p50 ÷ direct', 'req/s', 'failed'], rows.map((row) => [
        row.system, row.n, fixed(row.p50), fixed(row.p90), fixed(row.p99), direct ? fixed(row.p50 / direct.p50) : undefined, row.requestsPerSecond,
        row.errors ? `${row.errors} (${Object.entries(row.statuses).filter(([status]) => status !== '200').map(([status, count]) => `${status}×${count}`).join(', ')})` : 0,
      ])), '');
    }
    out.push('**Added by the router** (its percentile minus the direct one at the same concurrency; ratios are p50 over the reference\'s p50)', '');
    out.push(table(['system', 'streams', 'added p50 ms', 'added p99 ms', 'p50 ÷ bare proxy', 'p50 ÷ gateway'], addedTtfb.added.map((row) => [
      row.system, row.concurrency, fixed(row.addedP50), fixed(row.addedP99), fixed(row.p50VsBare), fixed(row.p50VsGateway),
    ])), '');
    const opened = addedTtfb.rows.filter((row) => row.afterPause);
    if (opened.length > 0) {
      const bareOpening = (concurrency: number) => opened.find((row) => row.system === 'bare-proxy' && row.concurrency === concurrency)?.afterPause;
      out.push('**After a pause** (not judged): every round above opened with a slice of the same load, '
        + `${addedTtfb.openingSeconds === undefined ? '' : `${addedTtfb.openingSeconds} s long, `}kept out of its figures. Between two rounds of one system the others run theirs, so that slice `
        + 'follows seconds without a request and shows what each system rebuilds after a quiet spell. For the router that is its '
        + 'allowances: they are retired after `ALLOWANCE_IDLE_MS` (1 s by default) without a request, so each account\'s first requests reserve through the database '
        + '(README, "Allowances (hot accounts)"). The figures above are the steady load that follows.', '');
      out.push(table(['system', 'streams', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'p99 ÷ bare proxy'], opened.map((row) => {
        const bare = bareOpening(row.concurrency);
        return [row.system, row.concurrency, row.afterPause!.n, fixed(row.afterPause!.p50), fixed(row.afterPause!.p90), fixed(row.afterPause!.p99),
          bare ? fixed(row.afterPause!.p99 / bare.p99) : undefined];
      })), '');
    }
  }

  if (throughput) {
    const bare = throughput.find((row) => row.system === 'bare-proxy');
    const gateway = throughput.find((row) => row.system === 'gateway');
    out.push('## 2. Throughput of short requests', '', `![Throughput per system](${charts.throughput})`, '');
    out.push(`~4 KB of audio per request, ${throughput[0]?.connections} keep-alive connections (autocannon), the router's full path: key lookup, price, reservation, upstream stream, settlement.`, '');
    out.push(table(['system', 'n', 'req/s', '÷ bare proxy', '÷ gateway', 'latency p50 / p90 / p99 ms', 'non-2xx', 'errors'], throughput.map((row) => [
      row.system, row.requests, thousands(row.requestsPerSecond), bare ? `${Math.round((row.requestsPerSecond / bare.requestsPerSecond) * 100)} %` : undefined,
      gateway ? `${Math.round((row.requestsPerSecond / gateway.requestsPerSecond) * 100)} %` : undefined,
      `${fixed(row.latencyMs.p50, 1)} / ${fixed(row.latencyMs.p90, 1)} / ${fixed(row.latencyMs.p99, 1)}`, row.non2xx, row.errors,
    ])), '');
    out.push('## 3. CPU time per request', '');
    out.push('From `/proc/<pid>/stat` (utime + stime) of every process over the measured rounds of scenario 2, divided by the requests served. '
      + 'The serving process is the router\'s data plane (the whole embedded process in the embedded mode) or the proxy.', '');
    const groups = [...new Set(throughput.flatMap((row) => Object.keys(row.cpuSeconds)))];
    out.push(table(['system', 'serving process µs/req', ...groups.map((group) => `${group} µs/req`)], throughput.map((row) => [
      row.system, fixed(row.cpuMicrosPerRequest, 0), ...groups.map((group) => (row.cpuSeconds[group] === undefined ? undefined : fixed((row.cpuSeconds[group]! / Math.max(1, row.requests)) * 1e6, 0))),
    ])), '');
  }
  const nodeLines = nodeLineRows(results);
  if (nodeLines.length) {
    out.push('**The data plane on Node 24** (no native uWS build loads there: it serves through its own node:http adapter), '
      + 'beside the same router on Node 20 with native uWS, limits on in both, measured in the same rounds; the bare proxy is the Node 20 native one.', '');
    out.push(table(['mode', 'server', 'TTFB p50 at 1 stream ms', '÷ bare proxy', 'short req/s', 'share of bare proxy', 'data plane µs/req'], nodeLines.map((row) => [
      row.mode, row.server, fixed(row.ttfbP50), fixed(row.ttfbVsBare), thousands(row.requestsPerSecond),
      row.shareOfBare === undefined ? undefined : `${Math.round(row.shareOfBare * 100)} %`, fixed(row.cpuMicros, 0),
    ])), '');
  }
  const busy = (summary: ProfileSummary) => summary.totalMs - summary.idleMs;
  const profileTables = (summary: ProfileSummary) => [
    table(['function', 'where', 'self ms', 'share'], summary.topFunctions.map((entry) => [`\`${entry.name}\``, entry.where ? `\`${entry.where}\`` : '', entry.selfMs, `${entry.percent} %`])), '',
    table(['by package', 'self ms', 'share'], summary.byPackage.map((entry) => [entry.name, entry.selfMs, `${entry.percent} %`])), '',
  ];
  for (const profile of profiles ?? []) {
    out.push(`**CPU profile of the ${profile.mode} data plane** (\`--cpu-prof\`, ${profile.requests} requests in ${fixed(profile.seconds, 1)} s, ${busy(profile)} ms busy of ${profile.totalMs} ms${profile.windowed ? ' while that load ran' : ' since the process started'}; self time as a share of busy time)`, '');
    out.push(...profileTables(profile));
    // The process's CPU per request counts every thread; the main thread's table alone would hide their share.
    const processBusy = busy(profile) + (profile.threads ?? []).reduce((sum, thread) => sum + busy(thread), 0);
    for (const thread of profile.threads ?? []) {
      out.push(`**Worker thread ${thread.thread} of the ${profile.mode} data plane's process** (${busy(thread)} ms busy of ${thread.totalMs} ms${thread.windowed ? ' while the same load ran' : ' since the process started'}, `
        + `${Math.round((busy(thread) / Math.max(1, processBusy)) * 100)} % of the busy time of the process's threads together; self time as a share of this thread's busy time)`, '');
      out.push(...profileTables(thread));
    }
  }

  if (limits?.length) {
    out.push('## 2b. What per-key limits cost', '');
    out.push('Each router mode beside a twin with `KEY_LIMITS=off` (no rate or concurrency check; the keys have no spend caps, so both run the same reservation), '
      + 'compared with a reference twin started the same way with nothing switched off (`router-<mode>-ref`: an extra data plane on the same database and Redis, '
      + 'or a second embedded process with the same small data), so that the pair differs only in the feature (the main router process is started '
      + 'before the history is seeded and serves the other scenarios). Throughput is measured in alternating slices (scenario 2p: '
      + `${pairedSlices(limits, pairedThroughput)} of short requests at 64 connections per side, strictly alternating (on-off-… for the first half, off-on-… for the second), each side's requests pooled; the cost in the `
      + 'rotating rounds of scenario 2 and the median over slice pairs are shown beside it), and time to first byte in pairs (scenario 1b: one request to the router, '
      + 'one to its twin, alternating, so both meet the machine in the same state; the rounds-based difference from scenario 1 is shown beside it). The load keys have generous limits '
      + '(10,000 streams, 1,000,000 requests a minute), so every check passes: this is the price of checking. Embedded: a Map lookup in the process. '
      + 'Scaled: limits this roomy are admitted from a grant the data plane holds (requests counted ahead and spare leases, topped up by one Lua script '
      + 'every few dozen requests; see README "Limits"); a key at the default limits makes one Redis round trip per request (the rate and the lease in one Lua script). '
      + 'Targets: at most +0.3 ms p50 time to first byte at one stream, at most 10 % of throughput.', '');
    out.push(table(['mode', 'TTFB p50 on / off ms', 'added p50 ms (≤ 0.3)', 'pairs', 'added in rounds ms', 'req/s on / off', 'throughput cost (≤ 10 %)', 'cost in rounds / median slice pair', 'data plane µs/req on / off'], limits.map((row) => [
      row.mode, `${fixed(row.ttfbP50OnMs)} / ${fixed(row.ttfbP50OffMs)}`, fixed(row.addedTtfbP50Ms), row.pairs, fixed(row.roundsAddedTtfbP50Ms),
      `${thousands(row.requestsPerSecondOn)} / ${thousands(row.requestsPerSecondOff)}`,
      `${fixed(row.throughputCostPercent, 1)} %`, costBeside(row), `${fixed(row.cpuMicrosPerRequestOn, 0)} / ${fixed(row.cpuMicrosPerRequestOff, 0)}`,
    ])), '');
  }

  if (metrics?.length) {
    out.push('## 2c. What metrics and logging cost', '');
    out.push('Each router mode (Prometheus metrics on, on its own `METRICS_PORT`; the reference twin as in 2b) beside a twin with `METRICS_ENABLED=false` and the quietest log level, '
      + `throughput in alternating slices as in 2p (${pairedSlices(metrics, pairedThroughput)} per side), time to first byte in pairs. Target: at most 5 % of throughput.`, '');
    out.push(table(['mode', 'TTFB p50 on / off ms', 'added p50 ms', 'pairs', 'req/s on / off', 'throughput cost (≤ 5 %)', 'cost in rounds / median slice pair', 'data plane µs/req on / off'], metrics.map((row) => [
      row.mode, `${fixed(row.ttfbP50OnMs)} / ${fixed(row.ttfbP50OffMs)}`, fixed(row.addedTtfbP50Ms), row.pairs,
      `${thousands(row.requestsPerSecondOn)} / ${thousands(row.requestsPerSecondOff)}`,
      `${fixed(row.throughputCostPercent, 1)} %`, costBeside(row), `${fixed(row.cpuMicrosPerRequestOn, 0)} / ${fixed(row.cpuMicrosPerRequestOff, 0)}`,
    ])), '');
  }

  if (slowStreams?.length) {
    out.push('## 4. Slow clients: memory and backpressure', '');
    out.push(`${slowStreams[0]!.streams} concurrent ~1 MB streams; each client reads 4 KB every 100 ms over raw sockets for a ${slowStreams[0]!.windowSeconds} s window, then hangs up. `
      + 'RSS from `/proc/<pid>/status`; kernel TCP buffer memory from `/proc/net/sockstat` (all sockets on the machine); backlog from the data plane\'s Prometheus metrics (`voice_router_speech_backlog_max_bytes` on `METRICS_PORT`): '
      + 'the bytes handed to the HTTP server that it could not yet send (write() returned false) until onWritable, per response.'
      + (slowStreams.some((row) => row.droppedSyns !== undefined)
        ? ' SYNs dropped: connection attempts the kernel refused while the streams opened and ran because a listening socket\'s accept queue was full '
          + '(`ListenOverflows` in `/proc/net/netstat`, machine-wide; one system runs at a time); each such client retries a second or more later.'
        : '')
      + (slowStreams.some((row) => row.acceptQueuePeak !== undefined || row.mainThread !== undefined)
        ? ' Accept queue peak: the most connections seen (every 200 ms) that the kernel had completed on the system\'s port, their requests sent, and its process '
          + 'had not yet accepted (`rx_queue` of the LISTEN row in `/proc/net/tcp`); they wait for its event loop. Mean wait: the queue summed over the samples '
          + '(its length times the time since the sample before, connection-seconds) divided by the streams: how long a connection sat there on average. Main thread: the share of the window its main '
          + 'thread ran on a CPU, and the share it was ready to run but waited for one while other threads and processes had both cores (`/proc/<pid>/task/<pid>/schedstat`).'
        : '')
      + (slowStreams.some((row) => row.system.endsWith('-node24'))
        ? ' The `-node24` rows: each router\'s own data plane restarted on Node 24 (its node:http adapter, started with the same flags as on Node 20) and measured the same way.'
        : ''), '');
    if (slowStreams.some((row) => row.backpressureEvents === 0)) {
      out.push(`> No backpressure reached the router's user space: on loopback the kernel buffers up to ${results.machine.tcpWriteBufferMax ?? 'several MB'} per socket `
        + '(`net.ipv4.tcp_wmem` max) and the fake upstream is paced, so a ~1 MB stream fits in kernel buffers and uWS never reported a blocked write. '
        + 'What the table shows is what each process holds per open stream anyway (connection state, pools, buffers).', '');
    }
    out.push(table(['system', 'streams', 'receiving audio', 'body MB read', 'RSS before MB', 'RSS peak MB', 'RSS per stream KB', 'largest stream backlog KB', 'backpressure events', 'peak open streams (router)', 'kernel TCP peak MB', 'SYNs dropped', 'statuses', 'accept queue peak', 'accept queue mean wait ms', 'main thread on CPU / waiting for one %'], slowStreams.map((row) => [
      row.system, row.streams, row.streaming, fixed(row.bodyBytes / 1048576, 1), row.rssBaselineMB, row.rssPeakMB, row.rssPerStreamKB, row.maxStreamBacklogKB, row.backpressureEvents, row.peakActiveStreams, row.kernelTcpPeakMB, row.droppedSyns,
      Object.entries(row.statuses).map(([status, count]) => `${status}×${count}`).join(', ') || 'none yet',
      row.acceptQueuePeak, row.acceptQueueSeconds === undefined ? undefined : Math.round((row.acceptQueueSeconds * 1000) / row.streams), row.mainThread && `${fixed(row.mainThread.onCpuPercent, 1)} / ${fixed(row.mainThread.waitingForCpuPercent, 1)}`,
    ])), '');
    const started = slowStreams.filter((row) => row.rssStartupPeakMB !== undefined);
    if (started.length) {
      out.push('**At start.** What a router\'s serving process needed while it last started, before this scenario: its highest RSS, sampled every 100 ms from its '
        + 'spawn until its start-up work was done (its CPU quiet; in the quick run, only until it served). Not judged: the target is the streams\' peak. A peak '
        + 'above the streams\' is memory the host must have for the process to start.', '');
      out.push(table(['system', 'RSS at start, peak MB', 'RSS before the streams MB', 'RSS peak under the streams MB'], started.map((row) => [
        row.system, row.rssStartupPeakMB, row.rssBaselineMB, row.rssPeakMB,
      ])), '');
    }
    const composed = slowStreams.filter((row) => row.memory);
    if (composed.length) {
      out.push('**What the router\'s memory is made of**, before the streams and at the metrics read (every 500 ms) with the highest RSS, from the process\'s own '
        + 'default metrics (`nodejs_heap_size_total_bytes`, `nodejs_heap_space_size_total_bytes`, `nodejs_external_memory_bytes`: the main thread\'s V8 heap as committed, '
        + 'and the memory outside it that V8 tracks, mostly ArrayBuffers: audio on its way through, some of it awaiting collection). "Other" is RSS less both: the Node '
        + 'binary, native allocations and, in the embedded process, PGlite\'s thread (its WebAssembly memory and its own V8 heap). In MB, before → at the peak read.', '');
      const pair = (row: SlowStreamRow, pick: (memory: MemoryComposition) => number) => `${fixed(pick(row.memory!.before), 1)} → ${fixed(pick(row.memory!.atPeak), 1)}`;
      out.push(table(['system', 'RSS', 'V8 heap', 'of it new space', 'of it old space', 'external (ArrayBuffers)', 'other'], composed.map((row) => [
        row.system, pair(row, (memory) => memory.rssMB), pair(row, (memory) => memory.heapMB), pair(row, (memory) => memory.newSpaceMB),
        pair(row, (memory) => memory.oldSpaceMB), pair(row, (memory) => memory.externalMB), pair(row, (memory) => memory.otherMB),
      ])), '');
    }
  }

  if (hotWallet?.length) {
    out.push('## 5. One hot wallet', '');
    out.push('200 clients on one account funded for a few seconds of short requests, until it runs dry. Reservations/s = successful requests ÷ time until the first 402. '
      + 'Then, once settled: balance = grant − successes × cost, nothing reserved, the operator audit (`admin audit`: balance = Σ deltas, reserved = Σ pending, running sums) holds, and no balance-after below zero.', '');
    if (hotWallet.some((row) => row.warmup)) {
      out.push('Before it, the same 200 clients warm the router up on another account in slices until two in a row agree within a tenth '
        + '(the full run: one-second slices, at most 15 s; the quick run: one slice), and the wallet is funded for the last slice\'s rate: a router that sat idle for minutes serves its first second at a fraction of its rate. '
        + 'The warm-up column gives its length and its first and last slices\' requests/s.', '');
    }
    // Each reservation here is a speech request through HTTP, so the router's HTTP path sets its rate: beside it,
    // what the same router and the bare proxy (the fastest HTTP path on this machine) served in scenario 2.
    const shortRate = (system: string) => throughput?.find((row) => row.system === system)?.requestsPerSecond;
    const bareRate = shortRate('bare-proxy');
    if (throughput) {
      out.push('Every reservation is a short speech request through the router\'s whole HTTP path, so that path sets the rate. Beside it: what the same router '
        + 'served of short requests in scenario 2 of this run (64 connections, where this scenario has 200 clients), and what the bare proxy served there, '
        + 'the fastest HTTP path on this machine.', '');
    }
    const alone = hotWallet.find((row) => row.ledgerAlone)?.ledgerAlone;
    if (alone) {
      out.push(`"The ledger alone": the same wallet rule without HTTP, measured right after the scenario. ${hotWallet[0]!.concurrency} callers in the bench process `
        + `reserve on one wallet funded for ${alone.reservations} reservations until it runs dry, through the batched statement a data plane uses for a request `
        + 'that no allowance covers (one reservation row each: no allowances), on a new database of the mode\'s kind (PGlite in memory on its own thread; a new database '
        + 'on the scaled router\'s PostgreSQL server). Then its books are checked: exactly what it admitted is reserved, and the operator audit holds.', '');
    }
    out.push(table(['mode', 'warm-up: s; first → last req/s', 'n (successes)', '402s', 'other errors', 'seconds', 'reservations/s', 'router\'s short req/s (2.)', '÷ router\'s short req/s', 'bare proxy\'s short req/s (2.)',
      'the ledger alone, reservations/s', 'balance (expected)', 'reserved', 'audit', 'lowest balance-after', 'books'], hotWallet.map((row) => {
      const routerRate = shortRate(`router-${row.mode}`);
      return [
        row.mode, row.warmup ? `${row.warmup.seconds}; ${thousands(row.warmup.firstPerSecond)} → ${thousands(row.warmup.lastPerSecond)}` : undefined, row.successes, row.rejected, row.otherErrors, row.seconds, thousands(row.reservationsPerSecond), thousands(routerRate),
        routerRate ? `${Math.round((row.reservationsPerSecond / routerRate) * 100)} %` : undefined, thousands(bareRate),
        row.ledgerAlone ? `${thousands(row.ledgerAlone.perSecond)}; ${row.ledgerAlone.exact ? 'exact' : '**WRONG**'}` : undefined,
        `${row.check.balanceMicros} (${row.check.expectedBalanceMicros})`, row.check.reservedMicros, row.check.auditConsistent ? 'consistent' : 'INCONSISTENT',
        row.check.lowestBalanceAfterMicros ?? 'CHECK constraint', row.check.passed ? 'correct' : '**WRONG**',
      ];
    })), '');
  }

  if (settlement) {
    out.push('## 6. Settlement through the worker', '');
    out.push(`${settlement.jobs} pending reservations over ${settlement.accounts} accounts, created in bulk SQL (${settlement.seedSeconds} s), and their commits enqueued (${settlement.enqueueSeconds} s) as the data plane sends them, ${settlement.settlementsPerJob ?? 5} settlements per BullMQ job (what its ${settlement.windowMs ?? 5} ms window holds at ~1,000 requests/s), before one worker process (\`apps/worker\`, default concurrency ${DEFAULT_SETTLEMENT_CONCURRENCY} jobs, pool 20, commits written up to 200 per transaction${settlement.partitions ? `, in ${settlement.partitions} partitions by account written at once` : ''}) starts. One wallet alone is bounded by its row lock (scenario 5).`, '');
    out.push(table(['jobs', 'commits/s (first → last commit)', 'commit span s', 'wall s (incl. worker start)', 'CPU s: worker / postgres / redis', 'worker RSS peak MB', 'audit of every account', 'still pending'], [[
      settlement.jobs, thousands(settlement.commitsPerSecond), settlement.commitSeconds, settlement.wallSeconds,
      `${settlement.cpuSeconds.worker} / ${settlement.cpuSeconds.postgres} / ${settlement.cpuSeconds.redis}`, settlement.workerRssPeakMB,
      settlement.auditConsistent ? 'consistent' : 'INCONSISTENT', settlement.pendingAfter,
    ]]), '');
  }

  if (activity?.length) {
    out.push('## 7. Reading a long history', '');
    out.push('One request at a time after 10 warm-up requests, on an account seeded with committed requests (reserve + commit rows, spread over 30 days).', '');
    out.push(table(['mode', 'endpoint', 'ledger rows', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'note'], activity.map((row) => [
      row.mode, row.endpoint, row.ledgerRows, row.n, fixed(row.p50), fixed(row.p90), fixed(row.p99), row.note,
    ])), '');
  }
  if (transcodeTtfb?.rows.length) {
    out.push('## 8. First byte through output conversion', '');
    out.push('One Cartesia double paced like the upstream above; one adapter asks it for MP3 (relayed as is), the other for a streaming WAV at 48 kHz '
      + 'that the router resamples to 24 kHz and encodes to MP3 (or pcm) itself. Measured at the adapter, one request at a time, alternating. '
      + '"Upstream done first" counts requests whose upstream body had ended before the first output byte (whole-clip buffering): it must be 0.', '');
    out.push(table(['system', 'n', 'p50 ms', 'p90 ms', 'p99 ms', 'added p50 ms', 'upstream done first'], transcodeTtfb.rows.map((row) => [
      row.system, row.n, fixed(row.p50), fixed(row.p90), fixed(row.p99), fixed(row.addedP50), row.upstreamFinishedFirst,
    ])), '');
    out.push('The conversion\'s own work before its first output byte (one 8 KB upstream chunk of 48 kHz WAV in, in-process, no network):', '');
    out.push(table(['target', 'n', 'p50 ms', 'p99 ms'], transcodeTtfb.work.map((row) => [row.target, row.n, fixed(row.p50), fixed(row.p99)])), '');
  }
  return `${out.join('\n')}\n`;
}

interface NodeLineRow {
  mode: string;
  server: string;
  ttfbP50?: number;
  ttfbVsBare?: number;
  requestsPerSecond?: number;
  shareOfBare?: number;
  cpuMicros?: number;
}

/** Each router beside its Node 24 twin, when the run measured one. */
function nodeLineRows(results: BenchResults): NodeLineRow[] {
  const { addedTtfb, throughput } = results.scenarios;
  const ttfb = (system: string) => addedTtfb?.rows.find((row) => row.system === system && row.concurrency === 1);
  const rate = (system: string) => throughput?.find((row) => row.system === system);
  const bareTtfb = ttfb('bare-proxy');
  const bareRate = rate('bare-proxy');
  const rows: NodeLineRow[] = [];
  for (const mode of ['embedded', 'scaled']) {
    if (!ttfb(`router-${mode}-node24`) && !rate(`router-${mode}-node24`)) continue;
    for (const [system, server] of [[`router-${mode}`, 'Node 20, native uWS'], [`router-${mode}-node24`, 'Node 24, node:http adapter']] as const) {
      const latency = ttfb(system);
      const served = rate(system);
      const dataPlane = served?.cpuSeconds['data plane'];
      rows.push({
        mode, server,
        ttfbP50: latency?.p50,
        ttfbVsBare: latency && bareTtfb ? latency.p50 / bareTtfb.p50 : undefined,
        requestsPerSecond: served?.requestsPerSecond,
        shareOfBare: served && bareRate ? served.requestsPerSecond / bareRate.requestsPerSecond : undefined,
        cpuMicros: served && dataPlane !== undefined ? (dataPlane / Math.max(1, served.requests)) * 1e6 : undefined,
      });
    }
  }
  return rows;
}

/** "12 slices of 1.5 s" for the paired throughput behind the rows, or a note that the rounds were used. */
function pairedSlices(rows: LimitsOverheadRow[], slices: PairedThroughputRow[] | undefined): string {
  const paired = rows.some((row) => row.throughputMethod === 'paired') ? slices?.[0] : undefined;
  return paired ? `${paired.slices} slices of ${paired.sliceSeconds} s` : 'none in this run: the figures are the rounds of scenario 2';
}

/** The rounds-based cost and the median slice pair, beside the headline figure. */
function costBeside(row: LimitsOverheadRow): string {
  const median = Number.isFinite(row.medianSliceCostPercent) ? `${fixed(row.medianSliceCostPercent, 1)} %` : '–';
  return `${fixed(row.roundsThroughputCostPercent, 1)} % / ${median}`;
}
