// Allowances: online credit control in the manner of Diameter Credit-Control (RFC 4006). A data plane
// that serves many requests of one account reserves one sum for it (an allowance: a reservation row of
// kind 'allowance') and pays each request out of it in memory, so the request path makes no database
// round trip. Nothing can be overspent: the allowance is reserved like any request, and a request is
// paid only from what its allowance still holds.
//
// The allowance's amount_micros is what it still holds. Three operations change it, and each one
// commutes with the others, so the order in which they reach the database does not matter:
//   - a request it paid for is committed: the request's commit row is written to the ledger (its only
//     row: it has no reservation row of its own), and its cost leaves the allowance, the wallet's
//     reserved sum and the wallet's balance;
//   - a request it paid for is voided: its void row (of zero) is written; no money moves (the holder
//     puts the amount back into what it may spend, and later returns it);
//   - the holder returns what it has not spent (releaseAllowance): it leaves the allowance and the
//     wallet's reserved sum. The final return marks the allowance released; it ends (committed) once
//     the last of its requests is settled and it holds nothing.
// A holder that dies leaves its allowance pending; the reaper voids it after the usual bound plus
// ALLOWANCE_MAX_AGE_MS, which returns what it still holds. A request of a voided allowance that is
// settled later is recorded as voided (reservation_expired), never charged: the same outcome as a
// request whose own reservation the reaper voided.
//
// Lock order everywhere: the wallet row first, then reservation rows, so these transactions queue
// instead of deadlocking.
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { arrayColumns, arrayLiteral } from './array-literal.js';
import type { ReserveCreditInput } from './reserve-credit.js';
import type { SettlementOutcome } from './settle-reservation.js';
import { isUniqueViolation } from './unique-violation.js';

/** A holder pays requests from an allowance for at most this long after taking it; the reaper adds it to its bound. */
export const ALLOWANCE_MAX_AGE_MS = 10_000;

export interface OpenAllowanceInput {
  allowanceId: string;
  accountId: string;
  /** The most to take. */
  maxMicros: bigint;
  /** Take at most spendable ÷ this (several replicas may each hold one; the rest stays spendable to all). */
  shareOfSpendable: bigint;
  /** Take nothing unless at least this much can be taken. */
  minMicros: bigint;
}

export type OpenAllowanceResult = { ok: true; amountMicros: bigint } | { ok: false };

const OPEN = `
WITH candidate AS (
  SELECT account_id, LEAST($2::bigint, (balance_micros - reserved_micros) / $3::bigint) AS amount
  FROM wallets WHERE account_id = $1::uuid FOR UPDATE
), wallet AS (
  UPDATE wallets SET reserved_micros = wallets.reserved_micros + candidate.amount, updated_at = now()
  FROM candidate
  WHERE wallets.account_id = candidate.account_id AND candidate.amount >= $4::bigint AND candidate.amount > 0
  RETURNING wallets.balance_micros, candidate.amount
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters, kind)
  SELECT $5::uuid, $1::uuid, NULL, wallet.amount, 'allowance', 'allowance', 0, 'allowance' FROM wallet
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT $1::uuid, 'reserve', 0, wallet.balance_micros, reservation.id, 'request',
         jsonb_build_object('allowance', true, 'amountMicros', wallet.amount)
  FROM wallet, reservation
  RETURNING id
)
SELECT wallet.amount FROM wallet, entry`;

/** One allowance, one statement. */
export async function openAllowanceAlone(sql: SqlClient, input: OpenAllowanceInput): Promise<OpenAllowanceResult> {
  checkBounds(input);
  const [row] = await sql.query<{ amount: unknown }>(
    OPEN,
    [input.accountId, input.maxMicros, input.shareOfSpendable, input.minMicros, input.allowanceId],
    'ledger_allowance_open',
  );
  return row ? { ok: true, amountMicros: toMicros(row.amount) } : { ok: false };
}

// Allowances of different accounts, one each, in one statement (its own transaction): many accounts
// turning hot at once (a burst after a quiet spell) wait for one round trip, not for a queue of them
// through the connection pool (or, embedded, through the one database thread). The wallet rows are
// locked first, in account order, as the settlement statements lock them; each allowance is sized
// from its locked row exactly as OPEN sizes it. Outcomes are asked with `IN (SELECT …)` (hashed
// subplans: the planner cannot estimate a CTE's rows).
const OPEN_ACROSS = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::bigint[], $5::bigint[]) AS item(id, account_id, max_micros, share, min_micros)
), locked AS (
  SELECT account_id, balance_micros, reserved_micros FROM wallets
  WHERE account_id IN (SELECT account_id FROM input) ORDER BY account_id FOR UPDATE
), candidate AS (
  SELECT input.id, input.account_id, LEAST(input.max_micros, (locked.balance_micros - locked.reserved_micros) / input.share) AS amount,
         input.min_micros
  FROM input JOIN locked ON locked.account_id = input.account_id
), wallet AS (
  UPDATE wallets SET reserved_micros = wallets.reserved_micros + candidate.amount, updated_at = now()
  FROM candidate
  WHERE wallets.account_id = candidate.account_id AND candidate.amount >= candidate.min_micros AND candidate.amount > 0
  RETURNING wallets.account_id, wallets.balance_micros, candidate.amount, candidate.id
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters, kind)
  SELECT id, account_id, NULL, amount, 'allowance', 'allowance', 0, 'allowance' FROM wallet
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT account_id, 'reserve', 0, balance_micros, id, 'request', jsonb_build_object('allowance', true, 'amountMicros', amount)
  FROM wallet WHERE id IN (SELECT id FROM reservation)
  RETURNING reservation_id
)
SELECT id::text AS id, amount FROM wallet WHERE id IN (SELECT reservation_id FROM entry)`;

/** OPEN_ACROSS's parameters, one array literal per column (array-literal.ts). */
const OPEN_ACROSS_COLUMNS: ReadonlyArray<(input: OpenAllowanceInput) => string> = [
  (input) => input.allowanceId,
  (input) => input.accountId,
  (input) => input.maxMicros.toString(),
  (input) => input.shareOfSpendable.toString(),
  (input) => input.minMicros.toString(),
];

/** Most allowances opened per statement. */
const MAX_OPEN_BATCH = 200;

function checkBounds(input: OpenAllowanceInput): void {
  if (input.maxMicros <= 0n || input.shareOfSpendable <= 0n || input.minMicros < 0n) throw new RangeError('invalid allowance bounds');
}

/**
 * Opens one allowance on each of several accounts in one statement; results in the order given, each
 * as openAllowance would answer alone. Either all granted ones are written or none (it throws).
 */
export async function openAllowances(sql: SqlClient, inputs: readonly OpenAllowanceInput[]): Promise<OpenAllowanceResult[]> {
  const accounts = new Set<string>();
  for (const input of inputs) {
    checkBounds(input);
    if (accounts.has(input.accountId)) throw new RangeError('openAllowances takes one allowance per account');
    accounts.add(input.accountId);
  }
  if (inputs.length === 0) return [];
  const rows = await sql.query<{ id: string; amount: unknown }>(OPEN_ACROSS, arrayColumns(inputs, OPEN_ACROSS_COLUMNS), 'ledger_allowance_open_across');
  const granted = new Map(rows.map((row) => [row.id.toLowerCase(), toMicros(row.amount)]));
  return inputs.map((input): OpenAllowanceResult => {
    const amountMicros = granted.get(input.allowanceId.toLowerCase());
    return amountMicros === undefined ? { ok: false } : { ok: true, amountMicros };
  });
}

interface WaitingOpen {
  input: OpenAllowanceInput;
  resolve(result: OpenAllowanceResult): void;
  reject(error: unknown): void;
}

/**
 * Gathers the openings asked for in each turn of the event loop: one alone gets the single statement,
 * several (one per account; a second of the same account waits for the next statement) share one
 * openAllowances. On a serial database (PGlite) openings keep gathering while one is in flight, which
 * the next would only wait behind. If a shared statement fails, each opening is tried alone.
 */
function createAllowanceOpener(sql: SqlClient): (input: OpenAllowanceInput) => Promise<OpenAllowanceResult> {
  let waiting: WaitingOpen[] = [];
  let scheduled = false;
  let inFlight = 0;

  function schedule() {
    if (scheduled || (sql.serial && inFlight > 0)) return;
    scheduled = true;
    setImmediate(flush);
  }

  async function send(batch: WaitingOpen[]): Promise<void> {
    if (batch.length === 1) {
      const [only] = batch;
      await openAllowanceAlone(sql, only!.input).then(only!.resolve, only!.reject);
      return;
    }
    try {
      const results = await openAllowances(sql, batch.map((item) => item.input));
      batch.forEach((item, index) => item.resolve(results[index]!));
    } catch {
      await Promise.all(batch.map((item) => openAllowanceAlone(sql, item.input).then(item.resolve, item.reject)));
    }
  }

  function flush() {
    scheduled = false;
    const taken = new Set<string>();
    const batch: WaitingOpen[] = [];
    const later: WaitingOpen[] = [];
    for (const item of waiting) {
      if (taken.has(item.input.accountId) || batch.length >= MAX_OPEN_BATCH) later.push(item);
      else {
        taken.add(item.input.accountId);
        batch.push(item);
      }
    }
    waiting = later;
    inFlight += 1;
    void send(batch).finally(() => {
      inFlight -= 1;
      if (waiting.length > 0) schedule();
    });
    if (waiting.length > 0) schedule();
  }

  return (input) => {
    try {
      checkBounds(input);
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      waiting.push({ input, resolve, reject });
      schedule();
    });
  };
}

const openers = new WeakMap<SqlClient, (input: OpenAllowanceInput) => Promise<OpenAllowanceResult>>();

/**
 * Reserves an allowance on the account, sized by its spendable balance; refuses when that is too small.
 * Openings asked for in the same turn on the same database client share one statement.
 */
export function openAllowance(sql: SqlClient, input: OpenAllowanceInput): Promise<OpenAllowanceResult> {
  let opener = openers.get(sql);
  if (!opener) {
    opener = createAllowanceOpener(sql);
    openers.set(sql, opener);
  }
  return opener(input);
}

// What the account's allowances may still return: those not finally returned by their holders (the
// money of requests they paid that are not settled yet is in it too), and what the wallet can spend,
// both as of one snapshot. A small partial index keeps it one lookup however many reservations are
// pending.
const STANDING = `
SELECT coalesce((SELECT sum(amount_micros) FROM reservations
                 WHERE account_id = $1::uuid AND kind = 'allowance' AND state = 'pending' AND released_at IS NULL
                   AND NOT (id = ANY($2::uuid[]))), 0)::text AS held,
       coalesce((SELECT balance_micros - reserved_micros FROM wallets WHERE account_id = $1::uuid), 0)::text AS spendable`;

export interface AllowanceStanding {
  /** The money the account's open allowances hold, except those given. */
  heldMicros: bigint;
  /** What the wallet can spend now. */
  spendableMicros: bigint;
}

/** The money the account's open allowances hold, except those given (a data plane's own), and what its wallet can spend, at one instant. */
export async function allowanceStanding(sql: SqlClient, accountId: string, except: readonly string[] = []): Promise<AllowanceStanding> {
  const [row] = await sql.query<{ held: unknown; spendable: unknown }>(STANDING, [accountId, arrayLiteral(except)], 'ledger_allowance_standing');
  return { heldMicros: toMicros(row?.held ?? 0), spendableMicros: toMicros(row?.spendable ?? 0) };
}

const LOCK_WALLET = 'SELECT 1 FROM wallets WHERE account_id = $1::uuid FOR UPDATE';

const RELEASE = `
WITH allowance AS (
  UPDATE reservations SET amount_micros = amount_micros - $2::bigint,
         released_at = CASE WHEN $3::boolean THEN now() ELSE released_at END,
         state = CASE WHEN $3::boolean AND amount_micros = $2::bigint THEN 'committed' ELSE state END,
         settled_at = CASE WHEN $3::boolean AND amount_micros = $2::bigint THEN now() ELSE settled_at END
  WHERE id = $1::uuid AND kind = 'allowance' AND state = 'pending' AND amount_micros >= $2::bigint
  RETURNING account_id
), wallet AS (
  UPDATE wallets SET reserved_micros = wallets.reserved_micros - $2::bigint, updated_at = now()
  FROM allowance WHERE wallets.account_id = allowance.account_id
  RETURNING 1
)
SELECT count(*)::int AS released FROM wallet`;

export interface ReleaseAllowanceInput {
  allowanceId: string;
  accountId: string;
  /** What the holder has not spent and gives back now. */
  amountMicros: bigint;
  /** The holder's last return: it will pay no more requests from it. */
  final: boolean;
}

/**
 * Returns unspent money from an allowance to the wallet. False when the allowance is no longer pending
 * (the reaper voided it, which returned everything it held).
 */
export async function releaseAllowance(sql: SqlClient, input: ReleaseAllowanceInput): Promise<boolean> {
  if (input.amountMicros < 0n) throw new RangeError('cannot release a negative amount');
  const rows = await sql.transaction(async (client) => {
    await client.query(LOCK_WALLET, [input.accountId], 'ledger_allowance_lock');
    return client.query<{ released: number }>(RELEASE, [input.allowanceId, input.amountMicros, input.final], 'ledger_allowance_release');
  });
  return Number(rows[0]?.released ?? 0) > 0;
}

const VOID_ALLOWANCE = `
WITH allowance AS (
  UPDATE reservations SET state = 'voided', settled_at = now(), error_code = $2
  WHERE id = $1::uuid AND kind = 'allowance' AND state = 'pending'
  RETURNING account_id, amount_micros
), wallet AS (
  UPDATE wallets SET reserved_micros = wallets.reserved_micros - allowance.amount_micros, updated_at = now()
  FROM allowance WHERE wallets.account_id = allowance.account_id
  RETURNING 1
)
SELECT count(*)::int AS voided FROM wallet`;

/** The reaper's end for an allowance whose holder is gone: what it still holds returns to the wallet. */
export async function voidAllowance(sql: SqlClient, input: { allowanceId: string; accountId: string; errorCode: string }): Promise<SettlementOutcome> {
  const rows = await sql.transaction(async (client) => {
    await client.query(LOCK_WALLET, [input.accountId], 'ledger_allowance_lock');
    return client.query<{ voided: number }>(VOID_ALLOWANCE, [input.allowanceId, input.errorCode], 'ledger_allowance_void');
  });
  return Number(rows[0]?.voided ?? 0) > 0 ? 'settled' : 'already_settled';
}

/** A request paid from an allowance, as its settlement carries it (it has no reservation row: its ledger row is all it writes). */
export interface AllowanceSpend
  extends Pick<ReserveCreditInput, 'reservationId' | 'accountId' | 'apiKeyId' | 'amountMicros' | 'provider' | 'model' | 'characters'> {
  allowanceId: string;
  action: 'commit' | 'void';
  /** For voids: the error code that caused it. */
  errorCode?: string;
  /** Who settles: request (in-process), worker, reaper. */
  source: string;
  metadata?: Record<string, unknown>;
}

/** More than this per call is split into several transactions. */
export const MAX_SPEND_BATCH = 200;

// One statement for the batch (one round trip, no transaction around it). It locks the wallets first
// (`locked`, in account order; the allowance rows' scan waits for it through the scalar subquery, which
// runs before the first row is locked), then the allowances, the order every writer keeps. A request
// paid from an allowance is written as one ledger row and nothing else: a commit row charging it, or a
// void row of zero, with the running balance in the order given. It has no reservation row of its own
// (its money was reserved as the allowance's), so its id lives only in that row's reservation_id, and the
// unique index on settlement rows (one commit or void per reservation id) keeps it written once. The
// row's metadata names the allowance and the API key. A commit is charged only if its allowance is still
// pending and holds its cost (always, unless the reaper voided the allowance: then the request is recorded
// voided, reservation_expired). Rows read FOR UPDATE are their latest versions, so the balances and
// amounts used are current once the locks are held.
// A request already written (a redelivered job) is skipped: whether it is, is asked per request by a
// scalar subquery (an index probe on that unique index), not NOT EXISTS: that became an anti join, which
// on a young table (no statistics yet, or few rows as of the last ANALYZE) hashed a sequential scan of the
// whole table into each statement (8,000 requests written 40 at a time on a new database: 179 µs of
// PostgreSQL CPU each, 92 µs with the probe). The probe reads the statement's snapshot; a copy written by
// a concurrent transaction since is caught by the index itself (settleChunk, below).
// Earlier versions also wrote each such request a reservation row (committed or voided, with
// allowance_id set); requests written then have both, and the probe finds their ledger rows.
// The batch arrives as one array per column (spendColumns, array-literal.ts), and the statement answers
// with the positions of the requests it skipped only, so a batch of new requests returns no row. Against
// one JSON document in and a row per request out, in batches of 200: PGlite 34–38 µs of wall time a
// request against 47–53; PostgreSQL's backend 20.7–21.8 µs of CPU against 22.0–23.8 (bench/HISTORY.md, session 33).
// Whether each allowance can pay what the batch asks of it is decided once, as the allowance's row is
// locked (`allowance`, joined to `wanted`), and whether each request is charged once (`decided`, kept
// materialized). Before, `valid` joined the locked rows to `wanted` in a nested loop (the planner knows
// no row counts for CTEs), and `decided`, inlined into `settled`, ran that subquery twice, once for
// `charge` and once for `charged`: in batches of 150 over 64 accounts, PostgreSQL's CPU fell from
// 56.7–65.6 to 42.2–51.1 µs a request and PGlite's wall time from 109–124 to 85–110 on a slow host
// (bench/HISTORY.md, session 34).
const SETTLE_SPENDS = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::uuid[], $5::bigint[], $6::text[], $7::text[], $8::int[],
                       $9::text[], $10::text[], $11::text[], $12::jsonb[]) WITH ORDINALITY
    AS item(id, allowance_id, account_id, api_key_id, amount, provider, model, characters, action, error_code, source, metadata, position)
), locked AS (
  SELECT wallets.account_id, wallets.balance_micros FROM wallets
  WHERE wallets.account_id IN (SELECT account_id FROM input)
  ORDER BY wallets.account_id
  FOR UPDATE
), fresh AS (
  SELECT DISTINCT ON (input.id) input.* FROM input
  WHERE (SELECT 1 FROM ledger_entries WHERE ledger_entries.reservation_id = input.id AND ledger_entries.kind IN ('commit', 'void')) IS NULL
  ORDER BY input.id, input.position
), wanted AS (
  SELECT allowance_id, coalesce(sum(amount) FILTER (WHERE action = 'commit'), 0)::bigint AS total FROM fresh GROUP BY allowance_id
), allowance AS MATERIALIZED (
  SELECT reservations.id, (reservations.state = 'pending' AND reservations.amount_micros >= wanted.total) AS valid
  FROM reservations JOIN wanted ON wanted.allowance_id = reservations.id
  WHERE reservations.kind = 'allowance' AND (SELECT count(*) FROM locked) >= 0
  FOR UPDATE OF reservations
), decided AS MATERIALIZED (
  SELECT fresh.*, (fresh.action = 'commit' AND fresh.allowance_id IN (SELECT id FROM allowance WHERE valid)) AS charge FROM fresh
), settled AS (
  SELECT decided.*, CASE WHEN decided.charge THEN decided.amount ELSE 0 END AS charged FROM decided
), allowance_totals AS (
  SELECT allowance_id, sum(charged)::bigint AS total FROM settled GROUP BY allowance_id HAVING sum(charged) > 0
), allowance_update AS (
  UPDATE reservations SET amount_micros = reservations.amount_micros - allowance_totals.total,
         state = CASE WHEN reservations.released_at IS NOT NULL AND reservations.amount_micros = allowance_totals.total THEN 'committed' ELSE reservations.state END,
         settled_at = CASE WHEN reservations.released_at IS NOT NULL AND reservations.amount_micros = allowance_totals.total THEN now() ELSE reservations.settled_at END
  FROM allowance_totals WHERE reservations.id = allowance_totals.allowance_id
  RETURNING reservations.id
), account_totals AS (
  SELECT account_id, sum(charged)::bigint AS total FROM settled GROUP BY account_id
), wallet AS (
  UPDATE wallets SET balance_micros = wallets.balance_micros - account_totals.total,
                     reserved_micros = wallets.reserved_micros - account_totals.total,
                     updated_at = now()
  FROM account_totals WHERE wallets.account_id = account_totals.account_id AND account_totals.total > 0
  RETURNING wallets.account_id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT ordered.account_id, ordered.kind, -ordered.charged, ordered.balance_after, ordered.id, ordered.source, ordered.metadata
  FROM (
    SELECT settled.account_id, settled.id, settled.charged, settled.source, settled.position,
           CASE WHEN settled.charge THEN 'commit' ELSE 'void' END AS kind,
           locked.balance_micros - sum(settled.charged) OVER (PARTITION BY settled.account_id ORDER BY settled.position) AS balance_after,
           CASE WHEN settled.charge
             THEN jsonb_build_object('provider', settled.provider, 'model', settled.model, 'characters', settled.characters)
             ELSE jsonb_build_object('amountMicros', settled.amount,
                                     'errorCode', CASE WHEN settled.action = 'void' THEN coalesce(settled.error_code, 'unknown') ELSE 'reservation_expired' END,
                                     'provider', settled.provider, 'model', settled.model)
           END || coalesce(settled.metadata, '{}'::jsonb)
             || jsonb_strip_nulls(jsonb_build_object('allowanceId', settled.allowance_id, 'apiKeyId', settled.api_key_id)) AS metadata
    FROM settled JOIN locked ON locked.account_id = settled.account_id
    ORDER BY settled.account_id, settled.position
  ) AS ordered
  RETURNING reservation_id
)
SELECT input.position::int AS position FROM input WHERE NOT (input.id IN (SELECT reservation_id FROM entry))`;

/** SETTLE_SPENDS's twelve parameters, one array literal per column, the rows in the order given (their position). */
const SPEND_COLUMNS: ReadonlyArray<(spend: AllowanceSpend) => string | null> = [
  (spend) => spend.reservationId,
  (spend) => spend.allowanceId,
  (spend) => spend.accountId,
  (spend) => spend.apiKeyId,
  (spend) => spend.amountMicros.toString(),
  (spend) => spend.provider,
  (spend) => spend.model,
  (spend) => String(spend.characters),
  (spend) => spend.action,
  (spend) => spend.errorCode ?? null,
  (spend) => spend.source,
  (spend) => JSON.stringify(spend.metadata ?? {}),
];

/**
 * Writes the settlements of requests paid from allowances, any number of accounts at once; each
 * request is written once however often it is given. Returns each id's outcome.
 */
export async function settleAllowanceSpends(sql: SqlClient, spends: readonly AllowanceSpend[]): Promise<Map<string, SettlementOutcome>> {
  const outcomes = new Map<string, SettlementOutcome>();
  for (let start = 0; start < spends.length; start += MAX_SPEND_BATCH) {
    const chunk = spends.slice(start, start + MAX_SPEND_BATCH);
    for (const spend of chunk) if (spend.amountMicros < 0n) throw new RangeError('a request cannot cost a negative amount');
    // The statement names (by position, from 1) only the requests it did not write: already written.
    const skipped = new Set((await settleChunk(sql, arrayColumns(chunk, SPEND_COLUMNS))).map((row) => Number(row.position)));
    chunk.forEach((spend, index) => {
      const id = spend.reservationId.toLowerCase();
      if (outcomes.get(id) === 'settled') return;
      outcomes.set(id, skipped.has(index + 1) ? 'already_settled' : 'settled');
    });
  }
  return outcomes;
}

const ONE_SETTLEMENT = 'ledger_entries_one_settlement';
/** A chunk meets a concurrent writer of the same requests at most once per redelivery; more is a fault. */
const SETTLE_ATTEMPTS = 3;

// The statement reads which requests are already written as of its snapshot, taken before it waits for
// the wallet's lock. A copy of the same requests written by another transaction in between (a job
// delivered twice and applied by two workers at once) is caught by the unique index on settlement rows:
// the whole statement fails and changes nothing, and the retry's snapshot sees those rows and skips them.
// Every caller runs it outside a transaction (inside one, the failure would abort the transaction, and
// the retry would fail with it).
async function settleChunk(sql: SqlClient, columns: string[]): Promise<Array<{ position: number }>> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await sql.query<{ position: number }>(SETTLE_SPENDS, columns, 'ledger_spends_settle');
    } catch (error) {
      if (!isUniqueViolation(error, ONE_SETTLEMENT) || attempt >= SETTLE_ATTEMPTS) throw error;
    }
  }
}
