// Reservations of one wallet that arrive in the same turn of the event loop are written together:
// one transaction locks the wallet row once, admits them in arrival order while spendable covers each
// (a request that does not fit is refused alone; a smaller one after it may still pass), and writes
// every admitted reservation and its ledger row in one statement. A hot wallet then pays one lock
// hand-over per batch instead of one per request, and the books are the same as one at a time. The
// wallets with a single request in the turn share one statement too (reserveCreditAcross).
//
// Reservations that check a key's spend caps keep the single statement of reserve-credit.ts (its
// CHECK constraint refuses a window that would go over, which in a batch would refuse them all).
import type { SqlClient } from '../sql-client.js';
import { toMicros } from '../micros.js';
import { arrayColumns } from './array-literal.js';
import { checksSpendCaps, reserveCreditAlone, type ReserveCreditInput, type ReserveCreditResult } from './reserve-credit.js';

/** Most reservations written per transaction; more in one turn are split. */
export const MAX_RESERVE_BATCH = 200;

const LOCK_WALLET = 'SELECT balance_micros, reserved_micros FROM wallets WHERE account_id = $1::uuid FOR UPDATE';

// The wallet's guard is repeated (the row is locked, so it always holds); the CHECK constraints on
// wallets stay the last line of defence. Ledger rows are inserted in arrival order (the admitted
// requests are given in it). The batch travels as one array literal per column, as the settlement
// statements take theirs (array-literal.ts).
const WRITE_ADMITTED = `
WITH input AS (
  SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::bigint[], $5::text[], $6::text[], $7::int[]) WITH ORDINALITY
    AS item(id, api_key_id, amount, provider, model, characters, position)
), wallet AS (
  UPDATE wallets SET reserved_micros = reserved_micros + $8::bigint, updated_at = now()
  WHERE account_id = $1::uuid AND balance_micros - reserved_micros >= $8::bigint
  RETURNING balance_micros, reserved_micros
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters)
  SELECT input.id, $1::uuid, input.api_key_id, input.amount, input.provider, input.model, input.characters FROM input, wallet
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT ordered.account_id, 'reserve', 0, ordered.balance_micros, ordered.id, 'request', ordered.metadata
  FROM (
    SELECT $1::uuid AS account_id, wallet.balance_micros, input.id, input.position,
           jsonb_build_object('amountMicros', input.amount, 'provider', input.provider, 'model', input.model, 'characters', input.characters) AS metadata
    FROM input JOIN reservation ON reservation.id = input.id CROSS JOIN wallet
    ORDER BY input.position
  ) AS ordered
  RETURNING id
)
SELECT wallet.balance_micros, wallet.reserved_micros, (SELECT count(*) FROM entry)::int AS entries FROM wallet`;

/** WRITE_ADMITTED's batch, one array literal per column (array-literal.ts): the account is the batch's own. */
const RESERVE_MANY_COLUMNS: ReadonlyArray<(input: ReserveCreditInput) => string | null> = [
  (input) => input.reservationId,
  (input) => input.apiKeyId,
  (input) => input.amountMicros.toString(),
  (input) => input.provider,
  (input) => input.model,
  (input) => String(input.characters),
];

/** Reserves several requests of one account in one transaction; results in the order given. */
export async function reserveCreditBatch(sql: SqlClient, accountId: string, inputs: readonly ReserveCreditInput[]): Promise<ReserveCreditResult[]> {
  for (const input of inputs) {
    if (input.amountMicros < 0n) throw new RangeError('a reservation cannot be negative');
    if (input.accountId !== accountId) throw new RangeError('a batch reserves on one account');
    if (checksSpendCaps(input)) throw new RangeError('a reservation with spend caps runs alone');
  }
  return sql.transaction(async (client) => {
    const [row] = await client.query<{ balance_micros: unknown; reserved_micros: unknown }>(LOCK_WALLET, [accountId], 'ledger_reserve_lock');
    if (!row) return inputs.map(() => ({ ok: false, reason: 'insufficient_credit' }) as const);
    const balance = toMicros(row.balance_micros);
    const reservedBefore = toMicros(row.reserved_micros);
    let taken = 0n;
    const results: ReserveCreditResult[] = [];
    const admitted: ReserveCreditInput[] = [];
    for (const input of inputs) {
      if (balance - reservedBefore - taken < input.amountMicros) {
        results.push({ ok: false, reason: 'insufficient_credit' });
        continue;
      }
      taken += input.amountMicros;
      results.push({ ok: true, balanceMicros: balance, reservedMicros: reservedBefore + taken });
      admitted.push(input);
    }
    if (admitted.length === 0) return results;
    const [written] = await client.query<{ entries: number }>(
      WRITE_ADMITTED, [accountId, ...arrayColumns(admitted, RESERVE_MANY_COLUMNS), taken], 'ledger_reserve_many');
    if (!written || Number(written.entries) !== admitted.length) throw new Error('batched reservation was not written in full');
    return results;
  });
}

// Reservations of different accounts, one each, in one statement (its own transaction): the first
// request of many accounts at once (a burst after a quiet spell) waits for one round trip, not for a
// queue of them through the connection pool. The wallet rows are locked first, in account order, as
// the settlement statements lock them, so these queue behind each other instead of deadlocking; the
// update waits for the locks through the scalar subquery, a one-time filter evaluated before its first
// row. Each wallet's guard is the single statement's; outcomes are asked with `IN (SELECT …)` (hashed
// subplans: the planner cannot estimate a CTE's rows, and joins of them ran as nested loops).
const RESERVE_ACROSS = `
WITH input AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::bigint[], $5::text[], $6::text[], $7::int[])
    AS item(id, account_id, api_key_id, amount, provider, model, characters)
), locked AS (
  SELECT account_id FROM wallets WHERE account_id IN (SELECT account_id FROM input) ORDER BY account_id FOR UPDATE
), wallet AS (
  UPDATE wallets SET reserved_micros = wallets.reserved_micros + input.amount, updated_at = now()
  FROM input
  WHERE wallets.account_id = input.account_id AND wallets.balance_micros - wallets.reserved_micros >= input.amount
    AND (SELECT count(*) FROM locked) >= 0
  RETURNING wallets.account_id, wallets.balance_micros, wallets.reserved_micros, input.id, input.api_key_id, input.amount,
            input.provider, input.model, input.characters
), reservation AS (
  INSERT INTO reservations (id, account_id, api_key_id, amount_micros, provider, model, characters)
  SELECT id, account_id, api_key_id, amount, provider, model, characters FROM wallet
  RETURNING id
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT account_id, 'reserve', 0, balance_micros, id, 'request',
         jsonb_build_object('amountMicros', amount, 'provider', provider, 'model', model, 'characters', characters)
  FROM wallet WHERE id IN (SELECT id FROM reservation)
  RETURNING reservation_id
)
SELECT id::text AS id, balance_micros, reserved_micros FROM wallet WHERE id IN (SELECT reservation_id FROM entry)`;

/** RESERVE_ACROSS's batch, one array literal per column: the rows are of several accounts. */
const RESERVE_ACROSS_COLUMNS: ReadonlyArray<(input: ReserveCreditInput) => string | null> = [
  (input) => input.reservationId,
  (input) => input.accountId,
  (input) => input.apiKeyId,
  (input) => input.amountMicros.toString(),
  (input) => input.provider,
  (input) => input.model,
  (input) => String(input.characters),
];

/**
 * Reserves one request on each of several accounts in one statement; results in the order given.
 * Each is admitted or refused exactly as reserveCreditAlone would; either all admitted ones are written
 * or none (it throws).
 */
export async function reserveCreditAcross(sql: SqlClient, inputs: readonly ReserveCreditInput[]): Promise<ReserveCreditResult[]> {
  const accounts = new Set<string>();
  for (const input of inputs) {
    if (input.amountMicros < 0n) throw new RangeError('a reservation cannot be negative');
    if (checksSpendCaps(input)) throw new RangeError('a reservation with spend caps runs alone');
    if (accounts.has(input.accountId)) throw new RangeError('reserveCreditAcross takes one reservation per account');
    accounts.add(input.accountId);
  }
  if (inputs.length === 0) return [];
  const rows = await sql.query<{ id: string; balance_micros: unknown; reserved_micros: unknown }>(
    RESERVE_ACROSS, arrayColumns(inputs, RESERVE_ACROSS_COLUMNS), 'ledger_reserve_across');
  const admitted = new Map(rows.map((row) => [row.id.toLowerCase(), row]));
  return inputs.map((input): ReserveCreditResult => {
    const row = admitted.get(input.reservationId.toLowerCase());
    return row
      ? { ok: true, balanceMicros: toMicros(row.balance_micros), reservedMicros: toMicros(row.reserved_micros) }
      : { ok: false, reason: 'insufficient_credit' };
  });
}

interface Waiting {
  input: ReserveCreditInput;
  resolve(result: ReserveCreditResult): void;
  reject(error: unknown): void;
}

export interface ReservationBatcher {
  reserve(input: ReserveCreditInput): Promise<ReserveCreditResult>;
}

/**
 * Gathers the reservations of each turn of the event loop per account. A wallet with several requests
 * in the turn gets reserveCreditBatch; the wallets with one request each share one reserveCreditAcross
 * (a turn with a single request sends the single statement, as before). If a batch fails (a foreign
 * key, a lost connection), each of its requests is tried alone, so one bad request cannot fail its
 * neighbours.
 */
export function createReservationBatcher(sql: SqlClient): ReservationBatcher {
  let waiting = new Map<string, Waiting[]>();
  let scheduled = false;

  async function settleGroup(accountId: string, group: Waiting[]) {
    if (group.length === 1) {
      const [only] = group;
      await reserveCreditAlone(sql, only!.input).then(only!.resolve, only!.reject);
      return;
    }
    try {
      const results = await reserveCreditBatch(sql, accountId, group.map((item) => item.input));
      group.forEach((item, index) => item.resolve(results[index]!));
    } catch {
      await Promise.all(group.map((item) => reserveCreditAlone(sql, item.input).then(item.resolve, item.reject)));
    }
  }

  /** One request each of several accounts. */
  async function settleSingles(singles: Waiting[]) {
    if (singles.length === 1) return settleGroup(singles[0]!.input.accountId, singles);
    try {
      const results = await reserveCreditAcross(sql, singles.map((item) => item.input));
      singles.forEach((item, index) => item.resolve(results[index]!));
    } catch {
      await Promise.all(singles.map((item) => reserveCreditAlone(sql, item.input).then(item.resolve, item.reject)));
    }
  }

  // Batches in flight. On a serial database (PGlite) a second one would only wait for the first, so
  // requests keep gathering until it is done: off the main thread, PGlite no longer blocks the event
  // loop, and without this each turn would send a batch of one.
  let inFlight = 0;

  function schedule() {
    if (scheduled || (sql.serial && inFlight > 0)) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush() {
    scheduled = false;
    const groups = waiting;
    waiting = new Map();
    const send = (written: Promise<void>) => {
      inFlight += 1;
      void written.finally(() => {
        inFlight -= 1;
        if (waiting.size > 0) schedule();
      });
    };
    const singles: Waiting[] = [];
    for (const [accountId, group] of groups) {
      if (group.length === 1) {
        singles.push(group[0]!);
        continue;
      }
      for (let start = 0; start < group.length; start += MAX_RESERVE_BATCH) send(settleGroup(accountId, group.slice(start, start + MAX_RESERVE_BATCH)));
    }
    for (let start = 0; start < singles.length; start += MAX_RESERVE_BATCH) send(settleSingles(singles.slice(start, start + MAX_RESERVE_BATCH)));
  }

  return {
    reserve(input) {
      if (input.amountMicros < 0n) return Promise.reject(new RangeError('a reservation cannot be negative'));
      if (checksSpendCaps(input)) return reserveCreditAlone(sql, input);
      return new Promise<ReserveCreditResult>((resolve, reject) => {
        const group = waiting.get(input.accountId);
        if (group) group.push({ input, resolve, reject });
        else waiting.set(input.accountId, [{ input, resolve, reject }]);
        schedule();
      });
    },
  };
}

const batchers = new WeakMap<SqlClient, ReservationBatcher>();

/** The batcher shared by every caller of one database client (reserveCredit uses it). */
export function reservationBatcherFor(sql: SqlClient): ReservationBatcher {
  let batcher = batchers.get(sql);
  if (!batcher) {
    batcher = createReservationBatcher(sql);
    batchers.set(sql, batcher);
  }
  return batcher;
}

/**
 * Reserves a request's cost. Concurrent calls on the same database client for the same account are
 * written together; each caller gets its own result, exactly as if alone.
 */
export function reserveCredit(sql: SqlClient, input: ReserveCreditInput): Promise<ReserveCreditResult> {
  return reservationBatcherFor(sql).reserve(input);
}
