// `node bench/dist/ledger-micro.js [--database-url=…]`: the ledger alone, without HTTP, the data plane
// or the fake upstream, so the effect of batching is visible even on a busy machine. For PGlite (in
// memory) and PostgreSQL (when a URL is given), one at a time against batched:
//   - reservations/s on one wallet with 200 concurrent callers, until the wallet runs dry; then the
//     books are checked (exactly the admitted amount reserved, the audit holds);
//   - commits/s draining a backlog of pending reservations over 64 accounts, 50 callers at a time one
//     statement each (as the worker did) against batches of 200 written one at a time (as the worker does
//     now, settlement-applier.ts: MAX_BATCHES_IN_FLIGHT); for PostgreSQL also the CPU of its processes per
//     commit, read from /proc (with one batch in flight, commits/s is about one over it).
import { parseArgs } from 'node:util';
import { auditWallet, commitReservation, commitReservations, MAX_COMMIT_BATCH, reserveCredit, type Database } from '@voice-router/ledger';
import { CpuMeter, pidsByName } from './infra/proc-stats.js';
import { benchReservation, fundedAccount, ledgerAloneHotWallet, openFreshLedger } from './scenarios/ledger-alone.js';

const { values } = parseArgs({ options: { 'database-url': { type: 'string' }, reservations: { type: 'string', default: '6000' }, commits: { type: 'string', default: '20000' } } });
const RESERVATIONS = Number(values.reservations);
const COMMITS = Number(values.commits);
const CONCURRENCY = 200;

async function backlog(database: Database, batched: boolean) {
  const accounts = await Promise.all(Array.from({ length: 64 }, () => fundedAccount(database, 1_000_000_000n)));
  const ids: string[] = [];
  for (let start = 0; start < COMMITS; start += 1000) {
    const inputs = Array.from({ length: Math.min(1000, COMMITS - start) }, (_, index) => benchReservation(accounts[(start + index) % accounts.length]!));
    const results = await Promise.all(inputs.map((input) => reserveCredit(database.sql, input)));
    if (results.some((result) => !result.ok)) throw new Error('seed reservation refused');
    ids.push(...inputs.map((input) => input.reservationId));
  }
  const started = performance.now();
  const meter = new CpuMeter({ postgres: () => pidsByName('postgres') });
  meter.start();
  if (batched) {
    // One batch in flight at a time, as the worker's applier writes them.
    for (let next = 0; next < ids.length; next += MAX_COMMIT_BATCH) {
      await commitReservations(database.sql, ids.slice(next, next + MAX_COMMIT_BATCH).map((reservationId) => ({ reservationId, source: 'worker' })));
    }
  } else {
    let next = 0;
    await Promise.all(Array.from({ length: 50 }, async () => {
      while (next < ids.length) await commitReservation(database.sql, { reservationId: ids[next++]!, source: 'worker' });
    }));
  }
  const seconds = (performance.now() - started) / 1000;
  const databaseCpu = meter.stop().cpu.postgres!;
  const audits = await Promise.all(accounts.map((accountId) => auditWallet(database.sql, accountId)));
  const [pending] = await database.sql.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM reservations WHERE state = 'pending' AND model = 'bench' AND account_id = ANY($1::uuid[])`, [`{${accounts.join(',')}}`]);
  return {
    perSecond: Math.round(ids.length / seconds),
    databaseMicrosPerCommit: database.kind === 'postgres' ? Math.round((databaseCpu / ids.length) * 1e7) / 10 : undefined,
    exact: audits.every((audit) => audit.consistent) && Number(pending!.count) === 0,
  };
}

const targets: Array<{ name: string; databaseUrl?: string }> = [{ name: 'pglite' }];
if (values['database-url']) targets.push({ name: 'postgres', databaseUrl: values['database-url'] });
for (const target of targets) {
  const { database, close } = await openFreshLedger(target.databaseUrl);
  for (const batched of [false, true]) {
    const label = `${target.name} ${batched ? 'batched' : 'one at a time'}`;
    const hot = await ledgerAloneHotWallet(database, { reservations: RESERVATIONS, concurrency: CONCURRENCY, batched });
    process.stdout.write(`${label}: hot wallet ${hot.perSecond} reservations/s (${hot.admitted} admitted, books ${hot.exact ? 'exact' : 'WRONG'})\n`);
    const drain = await backlog(database, batched);
    const cpu = drain.databaseMicrosPerCommit === undefined ? '' : `, PostgreSQL ${drain.databaseMicrosPerCommit} µs of CPU a commit`;
    process.stdout.write(`${label}: backlog of ${COMMITS} ${drain.perSecond} commits/s${cpu} (books ${drain.exact ? 'exact' : 'WRONG'})\n`);
  }
  await close();
}
process.exit(0);
