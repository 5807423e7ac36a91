// PGlite runs PostgreSQL in single-user mode, where no autovacuum launcher runs: nothing vacuums or
// analyzes the embedded database unless we do. Without it, the planner's statistics are never refreshed
// (a data dir that grew from nothing to millions of ledger rows is planned as if it were empty), the
// dead row versions left by updates (a reservation's reserve → commit, a wallet per settlement) are
// reclaimed only where in-page pruning reaches them while their index entries stay, and no row is ever
// frozen: after about two billion write transactions PostgreSQL stops accepting writes to avoid
// transaction id wraparound (at the ~200 write transactions a second of a busy embedded router, that is
// four months of uptime).
//
// PostgreSQL with autovacuum turned off (some CI and benchmark set-ups do that) is in the same state, and
// worse for the hot statements: node-postgres prepares them once per connection, and a statement prepared
// while `reservations` was nearly empty keeps its generic plan (sequential scans) until something
// analyzes the table, which then invalidates it. Measured on the benchmark's scaled run with autovacuum
// off: PostgreSQL spent 240-370 µs of CPU per request, most of it scanning all of `reservations` per
// settlement batch (19,218 sequential scans, 229 million rows read in one run). So the worker checks the
// server's setting at start and, when it is off, runs the same rules (startPostgresMaintenance below).
//
// So the embedded mode applies autovacuum's own rules itself, on PostgreSQL's default thresholds (see
// "The Autovacuum Daemon" in the PostgreSQL manual): every few seconds it reads the cumulative
// statistics and vacuums a table with more dead rows than 50 + 20 % of its rows, analyzes one with more
// changed rows than 50 + 10 %, and vacuums any table whose oldest unfrozen transaction id is older than
// autovacuum_freeze_max_age, which makes that vacuum freeze it. Tables that only grow by inserts (the
// ledger) are vacuumed only for that reason, as with PostgreSQL's insert threshold turned off: such a
// vacuum reads every page written since the last, while every statement waits (PGlite runs one at a time).
import type { SqlClient } from './sql-client.js';

/** How often the statistics are read; a check that finds nothing to do is one cheap query. */
export const PGLITE_VACUUM_INTERVAL_MS = 10_000;

/** PostgreSQL's defaults (autovacuum_vacuum_threshold, _scale_factor, analyze_*, freeze_max_age). */
const VACUUM_THRESHOLD = 50;
const VACUUM_SCALE = 0.2;
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE = 0.1;
const FREEZE_MAX_AGE = 200_000_000;

const CANDIDATES = `
SELECT c.relname AS table, s.n_dead_tup::float8 AS dead, s.n_mod_since_analyze::float8 AS changed,
       greatest(c.reltuples, 0)::float8 AS rows, s.n_live_tup::float8 AS live, age(c.relfrozenxid)::float8 AS xid_age
FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
WHERE s.schemaname = 'public'
ORDER BY c.relname`;

interface TableStats {
  table: string;
  dead: number;
  changed: number;
  /** Rows as of the last ANALYZE or VACUUM (`reltuples`). */
  rows: number;
  /** Rows now, as the cumulative statistics count them. */
  live?: number;
  xid_age: number;
}

export type MaintenanceAction = 'vacuum' | 'analyze' | 'vacuum_analyze';

/** What autovacuum would do to a table now, if anything. */
export function maintenanceFor(stats: TableStats): MaintenanceAction | undefined {
  const vacuum = stats.dead > VACUUM_THRESHOLD + VACUUM_SCALE * stats.rows || stats.xid_age > FREEZE_MAX_AGE;
  const analyze = stats.changed > ANALYZE_THRESHOLD + ANALYZE_SCALE * stats.rows;
  if (vacuum && analyze) return 'vacuum_analyze';
  if (vacuum) return 'vacuum';
  return analyze ? 'analyze' : undefined;
}

const STATEMENT: Record<MaintenanceAction, string> = { vacuum: 'VACUUM', analyze: 'ANALYZE', vacuum_analyze: 'VACUUM (ANALYZE)' };

export interface PgliteVacuumLogger {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface PgliteVacuum {
  /** One pass now: reads the statistics and maintains what needs it (tests, and the timer). */
  runOnce(): Promise<Array<{ table: string; action: MaintenanceAction }>>;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

export function startPgliteVacuum(sql: SqlClient, options: { intervalMs?: number; logger?: PgliteVacuumLogger } = {}): PgliteVacuum {
  // PGlite's single backend reports its statistics only when told to; the next statement sees them.
  return startTableMaintenance(options, async (work) => {
    await sql.query('SELECT pg_stat_force_next_flush()', [], 'ledger_vacuum_flush_stats');
    return work(sql);
  }, 'embedded database maintained');
}

/** Replicas that maintain the same PostgreSQL database take turns (a round finds what the last left). */
const MAINTENANCE_LOCK_ID = 72_707_370;

/**
 * On PostgreSQL whose `autovacuum` setting is off, applies autovacuum's rules (as startPgliteVacuum does)
 * and returns the handle; when autovacuum is on, does nothing and returns undefined. A round runs on one
 * connection under an advisory lock, with autovacuum's own cost-based delay (2 ms per 200 units of work),
 * so a VACUUM yields to the requests as autovacuum's would.
 */
export async function startPostgresMaintenance(
  sql: SqlClient, options: { intervalMs?: number; settledAnalyzeIntervalMs?: number; logger?: PgliteVacuumLogger & { info(message: string, fields?: Record<string, unknown>): void } } = {},
): Promise<PgliteVacuum | undefined> {
  const [setting] = await sql.query<{ autovacuum: string }>(`SELECT current_setting('autovacuum') AS autovacuum`);
  if (setting?.autovacuum !== 'off') return undefined;
  options.logger?.info('PostgreSQL autovacuum is off: this process applies its thresholds to the tables itself', {
    intervalMs: options.intervalMs ?? PGLITE_VACUUM_INTERVAL_MS,
  });
  return startTableMaintenance({ settledAnalyzeIntervalMs: 60_000, ...options }, (work) => sql.withAdvisoryLock(MAINTENANCE_LOCK_ID, async (connection) => {
    await connection.query('SET vacuum_cost_delay = 2');
    try {
      return await work(connection);
    } finally {
      await connection.query('RESET vacuum_cost_delay');
    }
  }), 'database maintained (autovacuum is off)');
}

type MaintenanceRound = Array<{ table: string; action: MaintenanceAction }>;

/**
 * With pacing (`settledAnalyzeIntervalMs`, on PostgreSQL: 60 s, autovacuum's naptime), a table is vacuumed
 * or analyzed at most once per interval, unless it is small (under this many rows) and its row count moved
 * past the analyze threshold since its statistics were taken: a table growing from nothing is planned as
 * empty until analyzed, and that is when a fresh analyze matters (see the top of this file).
 *
 * Why pace the rest: each VACUUM or ANALYZE of a table invalidates the cached plans of every statement that
 * reads it, on every pooled connection, and each connection plans them again. In a scaled benchmark run
 * (statement log, `log_min_duration_statement = 0`), `wallets` (a few dozen rows, updated by every settlement)
 * was vacuumed or analyzed every 10-15 s, and the allowance-payment statement spent 0.4 ms in bind
 * (planning) per execution on average against 4.3 ms executing. A large table's ANALYZE also reads a sample of
 * up to 30,000 rows (~190 ms for `ledger_entries` in the benchmark). Vacuums that prevent transaction id
 * wraparound are never held back.
 */
const SETTLED_TABLE_ROWS = 10_000;

function startTableMaintenance(
  options: { intervalMs?: number; logger?: PgliteVacuumLogger; settledAnalyzeIntervalMs?: number },
  session: (work: (sql: SqlClient) => Promise<MaintenanceRound>) => Promise<MaintenanceRound>,
  logLine: string,
): PgliteVacuum {
  const intervalMs = options.intervalMs ?? PGLITE_VACUUM_INTERVAL_MS;
  let running: Promise<unknown> | undefined;
  let stopped = false;

  const lastMaintained = new Map<string, number>();
  const settledInterval = options.settledAnalyzeIntervalMs ?? 0;
  /** The action, unless the table was maintained too recently for its size to have moved (see above). */
  const paced = (stats: TableStats, action: MaintenanceAction | undefined, now: number): MaintenanceAction | undefined => {
    if (action === undefined || settledInterval === 0 || stats.xid_age > FREEZE_MAX_AGE) return action;
    const resized = stats.rows < SETTLED_TABLE_ROWS && stats.live !== undefined
      && Math.abs(stats.live - stats.rows) > ANALYZE_THRESHOLD + ANALYZE_SCALE * stats.rows;
    if (resized) return action;
    return now - (lastMaintained.get(stats.table) ?? Number.NEGATIVE_INFINITY) >= settledInterval ? action : undefined;
  };

  const runOnce = () => session(async (sql) => {
    const done: MaintenanceRound = [];
    const tables = await sql.query<TableStats>(CANDIDATES, [], 'ledger_vacuum_candidates');
    for (const stats of tables) {
      const action = paced(stats, maintenanceFor(stats), performance.now());
      if (!action || stopped) continue;
      lastMaintained.set(stats.table, performance.now());
      const started = performance.now();
      // Names come from the catalog; quoted all the same.
      await sql.execScript(`${STATEMENT[action]} "${stats.table.replace(/"/g, '""')}"`);
      done.push({ table: stats.table, action });
      options.logger?.debug(logLine, {
        table: stats.table, action, deadRows: stats.dead, ms: Math.round(performance.now() - started),
      });
    }
    return done;
  });

  const timer = setInterval(() => {
    if (running) return;
    running = runOnce()
      .catch((error: unknown) => {
        if (!stopped) options.logger?.warn('embedded database maintenance failed', { error });
      })
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();

  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
