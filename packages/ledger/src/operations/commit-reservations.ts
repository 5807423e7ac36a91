// Commits many reservations in one statement, however many accounts they span: the same effect as
// commitReservation once per id, for a fraction of the round trips and database CPU (settlement of a
// backlog, or of everything one event-loop turn decided). Each reservation still ends exactly once:
// only pending ones are committed, and the outcome of each id says which.
import type { SqlClient } from '../sql-client.js';
import { arrayColumns, arrayLiteral } from './array-literal.js';
import { commitReservation, type CommitInput, type SettlementOutcome } from './settle-reservation.js';

/** More than this per call is split into several statements (statement size, lock hold time). */
export const MAX_COMMIT_BATCH = 200;

// One statement (its own transaction) for the batch:
// - `locked`: the wallet rows first, locked in account order, so two batches over the same accounts
//   queue instead of deadlocking (a single commit or void locks one wallet only). The reservation
//   update waits for it through the scalar subquery, a one-time filter evaluated before its first row.
// - `reservation`: the pending ones among the given reservations are marked committed. `state || ''`
//   keeps the planner on the primary key (see settle-reservation.ts).
// - `wallet`: each wallet is charged their sum once; it returns the balance before the charge.
// - `entry`: each commit gets its own ledger row whose balance-after is the running balance in the
//   order given (rows are inserted in that order, so ids and running sums agree for the audit). The
//   balance before comes from a map built once (a join of the two CTEs ran as a nested loop, ~5 µs a
//   row, since the planner cannot estimate either). For the same reason the outcome asks `IN (SELECT …)`
//   of `entry`, which runs as one hashed subplan, where a join ran as a nested loop over both CTEs.
// Ids that come back unsettled are looked up afterwards (already settled, or unknown): that is rare
// (a redelivered job), so the common batch pays for nothing but its commits.
// The batch arrives as one array per column (array-literal.ts) and the statement answers with the
// positions of the reservations it did not commit only, as the allowance-payment statement does
// (allowances.ts): a batch that commits everything returns no row. Against one JSON document in and a
// row per reservation out, in batches of 200 over 64 accounts on a slow host: PGlite 57–93 µs of wall
// time a commit against 125–154; PostgreSQL's CPU within the noise (bench/HISTORY.md, session 34).
const COMMIT_MANY = `
WITH input AS (
  SELECT item.id, item.source, coalesce(item.metadata, '{}'::jsonb) AS metadata, item.position
  FROM unnest($1::uuid[], $2::text[], $3::jsonb[]) WITH ORDINALITY AS item(id, source, metadata, position)
), locked AS (
  SELECT account_id FROM wallets
  WHERE account_id IN (SELECT account_id FROM reservations WHERE id IN (SELECT id FROM input))
  ORDER BY account_id
  FOR UPDATE
), reservation AS (
  UPDATE reservations SET state = 'committed', settled_at = now()
  FROM input
  WHERE reservations.id = input.id AND reservations.state || '' = 'pending' AND (SELECT count(*) FROM locked) >= 0
  RETURNING reservations.id, reservations.account_id, reservations.amount_micros, reservations.provider, reservations.model,
            reservations.characters, input.source, input.metadata, input.position
), wallet AS (
  UPDATE wallets SET balance_micros = wallets.balance_micros - totals.total,
                     reserved_micros = wallets.reserved_micros - totals.total,
                     updated_at = now()
  FROM (SELECT account_id, sum(amount_micros)::bigint AS total FROM reservation GROUP BY account_id) AS totals
  WHERE wallets.account_id = totals.account_id
  RETURNING wallets.account_id, wallets.balance_micros + totals.total AS balance_before
), entry AS (
  INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, reservation_id, source, metadata)
  SELECT account_id, 'commit', -amount_micros,
         ((SELECT jsonb_object_agg(account_id, balance_before) FROM wallet) ->> account_id::text)::bigint
           - sum(amount_micros) OVER (PARTITION BY account_id ORDER BY position),
         id, source,
         jsonb_build_object('provider', provider, 'model', model, 'characters', characters) || metadata
  FROM reservation
  ORDER BY account_id, position
  RETURNING reservation_id
)
SELECT input.position::int AS position FROM input WHERE NOT (input.id IN (SELECT reservation_id FROM entry))`;

/** COMMIT_MANY's batch, one array literal per column (array-literal.ts). */
const COMMIT_COLUMNS: ReadonlyArray<(input: CommitInput) => string> = [
  (input) => input.reservationId,
  (input) => input.source,
  (input) => JSON.stringify(input.metadata ?? {}),
];

const KNOWN = 'SELECT id::text AS id FROM reservations WHERE id = ANY($1::uuid[])';

/**
 * Commits every reservation given (duplicates count once: the first one's source and metadata win)
 * and returns each id's outcome. Either the whole batch is written or none of it (it throws).
 */
export async function commitReservations(sql: SqlClient, inputs: readonly CommitInput[]): Promise<Map<string, SettlementOutcome>> {
  const unique = new Map<string, CommitInput>();
  for (const input of inputs) {
    const id = input.reservationId.toLowerCase();
    if (!unique.has(id)) unique.set(id, { ...input, reservationId: id });
  }
  const outcomes = new Map<string, SettlementOutcome>();
  const all = [...unique.values()];
  for (let start = 0; start < all.length; start += MAX_COMMIT_BATCH) {
    const chunk = all.slice(start, start + MAX_COMMIT_BATCH);
    if (chunk.length === 1) {
      // Alone, the single commit's statement does it (one wallet: no lock order to keep), simpler to
      // plan and run than the batch's: settlement at one stream sends batches of one.
      outcomes.set(chunk[0]!.reservationId, await commitReservation(sql, chunk[0]!));
      continue;
    }
    // The statement names (by position, from 1) only the reservations it did not commit.
    const skipped = new Set((await sql.query<{ position: number }>(COMMIT_MANY, arrayColumns(chunk, COMMIT_COLUMNS), 'ledger_commit_many'))
      .map((row) => Number(row.position)));
    const unsettled: string[] = [];
    chunk.forEach((input, index) => {
      if (skipped.has(index + 1)) unsettled.push(input.reservationId);
      else outcomes.set(input.reservationId, 'settled');
    });
    if (unsettled.length > 0) {
      const known = new Set((await sql.query<{ id: string }>(KNOWN, [arrayLiteral(unsettled)], 'ledger_commit_many_known')).map((row) => row.id.toLowerCase()));
      for (const id of unsettled) outcomes.set(id, known.has(id) ? 'already_settled' : 'not_found');
    }
  }
  return outcomes;
}
