// Allowances: a sum reserved for a hot account and spent in memory. The books must come out exactly as
// if every request had reserved on its own, whatever order the settlements, returns and the reaper
// reach the database in, and however often a settlement is delivered.
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import type { SqlClient, SqlValue } from './sql-client.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import { recordingStatementNames } from './__fixtures__/statement-names.js';
import {
  allowanceStanding, auditWallet, commitReservation, createAllowanceKeeper, createApiKey, createUser, DEFAULT_ALLOWANCE_SETTINGS, getCredits, grantCredit, openAllowance, openAllowanceAlone, openAllowances, reapReservations,
  commitReservations, reserveCreditAcross,
  releaseAllowance, settleAllowanceSpends, voidReservation, type AllowanceKeeper, type AllowancePeers, type AllowanceSettings, type AllowanceSpend,
  type ReserveCreditInput,
} from './index.js';

describeOnEachDatabase('allowances', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function fundedAccount(micros: bigint) {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    if (micros > 0n) await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
    return user.personalAccountId;
  }

  /** A request of the account, of the given cost, reserved on its own or paid from an allowance. */
  const requestOf = (accountId: string) => (amountMicros: bigint): ReserveCreditInput => ({
    reservationId: crypto.randomUUID(), accountId, apiKeyId: null, amountMicros, provider: 'openai', model: 'tts-1', characters: 5,
  });

  const spend = (accountId: string, allowanceId: string, amountMicros: bigint, action: 'commit' | 'void' = 'commit'): AllowanceSpend => ({
    reservationId: crypto.randomUUID(), allowanceId, accountId, apiKeyId: null, amountMicros, provider: 'openai', model: 'tts-1', characters: 5,
    action, errorCode: action === 'void' ? 'upstream_error' : undefined, source: 'worker',
  });

  async function allowanceRow(id: string) {
    const [row] = await database.sql.query<{ state: string; amount_micros: unknown; released_at: unknown }>(
      'SELECT state, amount_micros::text AS amount_micros, released_at FROM reservations WHERE id = $1::uuid', [id]);
    return row && { state: row.state, amountMicros: BigInt(String(row.amount_micros)), released: row.released_at !== null };
  }

  it('takes a share of what the wallet can spend, and nothing when that is below the minimum', async () => {
    const accountId = await fundedAccount(10_000n);
    const id = crypto.randomUUID();
    expect(await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 1_000_000n, shareOfSpendable: 20n, minMicros: 100n }))
      .toEqual({ ok: true, amountMicros: 500n });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n });
    // 9,500 spendable ÷ 20 = 475 < 480 asked as the minimum: refused, nothing written.
    expect(await openAllowance(database.sql, { allowanceId: crypto.randomUUID(), accountId, maxMicros: 1_000_000n, shareOfSpendable: 20n, minMicros: 480n }))
      .toEqual({ ok: false });
    expect(await openAllowance(database.sql, { allowanceId: crypto.randomUUID(), accountId: crypto.randomUUID(), maxMicros: 10n, shareOfSpendable: 1n, minMicros: 1n }))
      .toEqual({ ok: false });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000n, reservedMicros: 500n });
    const audit = await auditWallet(database.sql, accountId);
    expect(audit.consistent).toBe(true);
  });

  it('opens one allowance each on several accounts in one statement, each sized as alone', async () => {
    const balances = [10_000n, 10_000n, 9_000n, 50n, 1_000_000_000n, 0n];
    const bounds = (allowanceId: string, accountId: string, index: number) => ({
      allowanceId, accountId, maxMicros: 1_000_000n, shareOfSpendable: 20n, minMicros: index === 2 ? 480n : 10n,
    });
    const together = await Promise.all(balances.map(fundedAccount));
    const alone = await Promise.all(balances.map(fundedAccount));
    const unknown = crypto.randomUUID();
    const results = await openAllowances(database.sql, [...together, unknown].map((accountId, index) => bounds(crypto.randomUUID(), accountId, index)));
    const expected = [];
    for (const [index, accountId] of alone.entries()) expected.push(await openAllowanceAlone(database.sql, bounds(crypto.randomUUID(), accountId, index)));
    expected.push({ ok: false });
    // 500 of 10,000; 9,000 ÷ 20 = 450 is below its minimum of 480; 50 ÷ 20 = 2 is below 10; capped at 1,000,000; nothing of nothing.
    expect(results).toEqual(expected);
    expect(results.map((result) => (result.ok ? result.amountMicros : undefined))).toEqual([500n, 500n, undefined, undefined, 1_000_000n, undefined, undefined]);
    for (const [index, accountId] of together.entries()) {
      expect(await getCredits(database.sql, accountId)).toEqual(await getCredits(database.sql, alone[index]!));
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    }
    await expect(openAllowances(database.sql, [bounds(crypto.randomUUID(), together[0]!, 0), bounds(crypto.randomUUID(), together[0]!, 0)])).rejects.toThrow(RangeError);
  });

  it('openings asked for in one turn share one statement; a second of the same account follows in the next', async () => {
    const accounts = await Promise.all(Array.from({ length: 20 }, () => fundedAccount(100_000n)));
    const { sql: counting, names } = recordingStatementNames(database.sql);
    const open = (accountId: string) => openAllowance(counting, { allowanceId: crypto.randomUUID(), accountId, maxMicros: 1_000n, shareOfSpendable: 1n, minMicros: 1n });
    const results = await Promise.all([...accounts.map(open), open(accounts[0]!), open(accounts[1]!)]);
    expect(results.every((result) => result.ok && result.amountMicros === 1_000n)).toBe(true);
    expect(names).toEqual(['ledger_allowance_open_across', 'ledger_allowance_open_across']);
    expect(await getCredits(database.sql, accounts[0]!)).toEqual({ balanceMicros: 100_000n, reservedMicros: 2_000n });
    expect(await getCredits(database.sql, accounts[2]!)).toEqual({ balanceMicros: 100_000n, reservedMicros: 1_000n });
    names.length = 0;
    expect(await open(accounts[3]!)).toEqual({ ok: true, amountMicros: 1_000n });
    expect(names).toEqual(['ledger_allowance_open']);
  });

  it('openings and reservations across accounts beside commits over the same wallets, in any order: no deadlock, books exact', async () => {
    const accounts = await Promise.all(Array.from({ length: 12 }, () => fundedAccount(10_000_000n)));
    const shuffled = () => [...accounts].sort(() => Math.random() - 0.5);
    let open: string[] = [];
    for (let round = 0; round < 15; round += 1) {
      const inputs = shuffled().map((accountId) => requestOf(accountId)(1_000n));
      const [reserved, opened] = await Promise.all([
        reserveCreditAcross(database.sql, inputs),
        openAllowances(database.sql, shuffled().map((accountId) => ({ allowanceId: crypto.randomUUID(), accountId, maxMicros: 100n, shareOfSpendable: 2n, minMicros: 1n }))),
        commitReservations(database.sql, open.sort(() => Math.random() - 0.5).map((reservationId) => ({ reservationId, source: 'request' }))),
      ]);
      expect(reserved.every((result) => result.ok)).toBe(true);
      expect(opened.every((result) => result.ok)).toBe(true);
      open = inputs.map((input) => input.reservationId);
    }
    for (const accountId of accounts) {
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n - 14_000n, reservedMicros: 1_000n + 1_500n });
    }
  });

  it('a batch of requests is checked against the written ones by index, not by reading the whole ledger, even before any ANALYZE', async () => {
    // A new deployment's tables have no statistics yet; the check for requests already written (a
    // redelivered job) once became a hashed scan of the whole table in every batch.
    const accountId = await fundedAccount(10_000_000n);
    const id = crypto.randomUUID();
    expect(await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 5_000_000n, shareOfSpendable: 1n, minMicros: 1n }))
      .toEqual({ ok: true, amountMicros: 5_000_000n });
    for (let batch = 0; batch < 15; batch += 1) {
      await settleAllowanceSpends(database.sql, Array.from({ length: 200 }, () => spend(accountId, id, 1n)));
    }
    const [written] = await database.sql.query<{ rows: number }>('SELECT count(*)::int AS rows FROM ledger_entries');
    expect(written?.rows).toBeGreaterThan(3_000);
    const read = await database.sql.transaction(async (client) => {
      // Rows of the table this backend has read by sequential scans and not yet reported (its pending
      // statistics are reported when a transaction ends, so nothing else changes them in between).
      const sequentialReads = async () => {
        const [stats] = await client.query<{ seq_tup_read: unknown }>(
          `SELECT coalesce(sum(seq_tup_read), 0)::int AS seq_tup_read FROM pg_stat_xact_user_tables WHERE relname IN ('reservations', 'ledger_entries')`);
        return Number(stats?.seq_tup_read);
      };
      const before = await sequentialReads();
      const outcomes = await settleAllowanceSpends(client, Array.from({ length: 40 }, () => spend(accountId, id, 1n)));
      expect([...outcomes.values()].every((outcome) => outcome === 'settled')).toBe(true);
      return (await sequentialReads()) - before;
    });
    expect(read).toBeLessThan(500);
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('commits charge the allowance, voids charge nothing, the return ends it; every order gives the same books', async () => {
    for (const order of ['settlements first', 'return first'] as const) {
      const accountId = await fundedAccount(100_000n);
      const id = crypto.randomUUID();
      const opened = await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 1_000n, shareOfSpendable: 1n, minMicros: 1n });
      expect(opened).toEqual({ ok: true, amountMicros: 1_000n });
      const spends = [spend(accountId, id, 300n), spend(accountId, id, 200n, 'void'), spend(accountId, id, 100n)];
      // The holder spent 300 + 100 and got 200 back from the void: 600 unspent.
      const giveBack = () => releaseAllowance(database.sql, { allowanceId: id, accountId, amountMicros: 600n, final: true });
      if (order === 'return first') {
        expect(await giveBack()).toBe(true);
        expect(await allowanceRow(id)).toEqual({ state: 'pending', amountMicros: 400n, released: true });
      }
      const outcomes = await settleAllowanceSpends(database.sql, spends);
      expect([...outcomes.values()]).toEqual(['settled', 'settled', 'settled']);
      if (order === 'settlements first') {
        expect(await allowanceRow(id)).toEqual({ state: 'pending', amountMicros: 600n, released: false });
        expect(await giveBack()).toBe(true);
      }
      expect(await allowanceRow(id)).toEqual({ state: 'committed', amountMicros: 0n, released: true });
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 99_600n, reservedMicros: 0n });
      // Delivered again (a redelivered job): nothing changes.
      const again = await settleAllowanceSpends(database.sql, spends);
      expect([...again.values()]).toEqual(['already_settled', 'already_settled', 'already_settled']);
      expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 99_600n, reservedMicros: 0n });
      // Each request is one ledger row and nothing else: no reservation row of its own.
      const own = await database.sql.query('SELECT id FROM reservations WHERE id = ANY($1::uuid[]) OR allowance_id = $2::uuid',
        [`{${spends.map((item) => item.reservationId).join(',')}}`, id]);
      expect(own).toEqual([]);
      const entries = await database.sql.query<{ kind: string; micros_delta: unknown; reservation_id: string; metadata: unknown }>(
        `SELECT kind, micros_delta::text AS micros_delta, reservation_id::text, metadata FROM ledger_entries
         WHERE account_id = $1::uuid AND kind IN ('commit', 'void') ORDER BY id`, [accountId]);
      expect(entries.map((entry) => `${entry.kind} ${entry.micros_delta}`)).toEqual(['commit -300', 'void 0', 'commit -100']);
      expect(entries.map((entry) => entry.reservation_id)).toEqual(spends.map((item) => item.reservationId));
      const metadata = entries.map((entry) => (typeof entry.metadata === 'string' ? JSON.parse(entry.metadata) : entry.metadata));
      expect(metadata[0]).toEqual({ provider: 'openai', model: 'tts-1', characters: 5, allowanceId: id });
      expect(metadata[1]).toEqual({ amountMicros: 200, errorCode: 'upstream_error', provider: 'openai', model: 'tts-1', allowanceId: id });
      expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
    }
  });

  it('writes every field of a request as given, whatever characters its names and metadata hold', async () => {
    const accountId = await fundedAccount(10_000n);
    const key = await createApiKey(database.prisma, { accountId, name: 'awkward' });
    const id = crypto.randomUUID();
    expect(await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 1_000n, shareOfSpendable: 1n, minMicros: 1n })).toEqual({ ok: true, amountMicros: 1_000n });
    const awkward = (action: 'commit' | 'void', model: string, metadata: Record<string, unknown>): AllowanceSpend => ({
      ...spend(accountId, id, 70n, action), apiKeyId: key.id, provider: 'acme "quoted", {braced}', model, characters: 12_345, metadata,
      errorCode: action === 'void' ? 'NULL' : undefined,
    });
    const spends = [
      awkward('commit', 'model\\with\\backslashes', { deliveredBytes: 4224, note: 'a "b", {c} \\ d', nested: { list: [1, 'two', null] } }),
      awkward('void', 'NULL', { clientClosed: true }),
      awkward('commit', '', {}),
    ];
    const outcomes = await settleAllowanceSpends(database.sql, spends);
    expect([...outcomes.values()]).toEqual(['settled', 'settled', 'settled']);
    const entries = await database.sql.query<{ kind: string; micros_delta: unknown; reservation_id: string; metadata: unknown }>(
      `SELECT kind, micros_delta::text AS micros_delta, reservation_id::text, metadata FROM ledger_entries
       WHERE account_id = $1::uuid AND kind IN ('commit', 'void') ORDER BY id`, [accountId]);
    expect(entries.map((entry) => `${entry.kind} ${entry.micros_delta} ${entry.reservation_id}`))
      .toEqual([`commit -70 ${spends[0]!.reservationId}`, `void 0 ${spends[1]!.reservationId}`, `commit -70 ${spends[2]!.reservationId}`]);
    const metadata = entries.map((entry) => (typeof entry.metadata === 'string' ? JSON.parse(entry.metadata) : entry.metadata));
    const provider = 'acme "quoted", {braced}';
    expect(metadata).toEqual([
      {
        provider, model: 'model\\with\\backslashes', characters: 12_345, deliveredBytes: 4224, note: 'a "b", {c} \\ d', nested: { list: [1, 'two', null] },
        allowanceId: id, apiKeyId: key.id,
      },
      { amountMicros: 70, errorCode: 'NULL', provider, model: 'NULL', clientClosed: true, allowanceId: id, apiKeyId: key.id },
      { provider, model: '', characters: 12_345, allowanceId: id, apiKeyId: key.id },
    ]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 9_860n, reservedMicros: 860n });
    // Written ones beside a new one, in one batch: each gets its own outcome, by the id it was given.
    const fresh = { ...awkward('commit', 'm', {}), reservationId: crypto.randomUUID().toUpperCase() };
    const mixed = await settleAllowanceSpends(database.sql, [spends[1]!, fresh, spends[0]!]);
    expect([...mixed.entries()]).toEqual([
      [spends[1]!.reservationId, 'already_settled'], [fresh.reservationId.toLowerCase(), 'settled'], [spends[0]!.reservationId, 'already_settled'],
    ]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 9_790n, reservedMicros: 790n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('charges a batch only from allowances that still hold what it asks of each: the requests of one it would overdraw are recorded voided', async () => {
    const [short, enough] = [await fundedAccount(100_000n), await fundedAccount(100_000n)];
    const [shortId, enoughId] = [crypto.randomUUID(), crypto.randomUUID()];
    await openAllowance(database.sql, { allowanceId: shortId, accountId: short, maxMicros: 1_000n, shareOfSpendable: 1n, minMicros: 1n });
    await openAllowance(database.sql, { allowanceId: enoughId, accountId: enough, maxMicros: 5_000n, shareOfSpendable: 1n, minMicros: 1n });
    // 1,200 asked of an allowance holding 1,000 (a holder never spends more than it holds; the
    // statement still refuses to), beside requests of another account whose allowance holds them.
    const spends = [
      spend(short, shortId, 600n), spend(enough, enoughId, 700n), spend(short, shortId, 600n), spend(enough, enoughId, 300n, 'void'),
    ];
    const outcomes = await settleAllowanceSpends(database.sql, spends);
    expect([...outcomes.values()]).toEqual(['settled', 'settled', 'settled', 'settled']);
    const rows = await database.sql.query<{ reservation_id: string; kind: string; micros_delta: unknown; error_code: string }>(
      `SELECT reservation_id::text, kind, micros_delta::text AS micros_delta, metadata->>'errorCode' AS error_code FROM ledger_entries
       WHERE reservation_id = ANY($1::uuid[])`, [`{${spends.map((item) => item.reservationId).join(',')}}`]);
    const byId = new Map(rows.map((row) => [row.reservation_id, `${row.kind} ${row.micros_delta} ${row.error_code}`]));
    expect(spends.map((item) => byId.get(item.reservationId))).toEqual([
      'void 0 reservation_expired', 'commit -700 null', 'void 0 reservation_expired', 'void 0 upstream_error',
    ]);
    expect(await allowanceRow(shortId)).toMatchObject({ state: 'pending', amountMicros: 1_000n });
    expect(await allowanceRow(enoughId)).toMatchObject({ state: 'pending', amountMicros: 4_300n });
    expect(await getCredits(database.sql, short)).toEqual({ balanceMicros: 100_000n, reservedMicros: 1_000n });
    expect(await getCredits(database.sql, enough)).toEqual({ balanceMicros: 99_300n, reservedMicros: 4_300n });
    for (const accountId of [short, enough]) expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  /** PostgreSQL: resolves once a statement of this database waits for a row lock (a wallet's, here). */
  async function lockWaiterSeen() {
    for (const started = Date.now(); Date.now() - started < 10_000;) {
      const [row] = await database.sql.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      if (Number(row?.waiting) > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('no statement came to wait for the lock');
  }

  it('the same requests written by two transactions at once are charged once: the later one finds them written and retries', async () => {
    const accountId = await fundedAccount(100_000n);
    const id = crypto.randomUUID();
    expect(await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 10_000n, shareOfSpendable: 1n, minMicros: 1n }))
      .toEqual({ ok: true, amountMicros: 10_000n });
    const spends = Array.from({ length: 20 }, (_, index) => spend(accountId, id, 100n, index % 5 === 0 ? 'void' : 'commit'));
    const recorded = recordingStatementNames(database.sql);
    let second: Promise<Map<string, string>> | undefined;
    // The first copy is written inside a transaction that holds the wallet's lock until the second copy
    // waits for it (PostgreSQL: the second's snapshot, taken before, does not see the first; once the
    // lock is free it meets the first copy's rows in the unique index. PGlite: it runs after the first,
    // and sees them).
    const first = await database.sql.transaction(async (client) => {
      const outcomes = await settleAllowanceSpends(client, spends);
      second = settleAllowanceSpends(recorded.sql, spends);
      if (!database.sql.serial) await lockWaiterSeen();
      return outcomes;
    });
    expect([...first.values()].every((outcome) => outcome === 'settled')).toBe(true);
    const later = await second!;
    expect([...later.values()].every((outcome) => outcome === 'already_settled')).toBe(true);
    if (!database.sql.serial) expect(recorded.names.filter((name) => name === 'ledger_spends_settle')).toHaveLength(2);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 100_000n - 1_600n, reservedMicros: 10_000n - 1_600n });
    const [written] = await database.sql.query<{ rows: number }>(
      `SELECT count(*)::int AS rows FROM ledger_entries WHERE reservation_id = ANY($1::uuid[])`, [`{${spends.map((item) => item.reservationId).join(',')}}`]);
    expect(written?.rows).toBe(20);
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('the reaper returns what a dead holder held; a request settled after that is recorded voided, never charged', async () => {
    const accountId = await fundedAccount(50_000n);
    const id = crypto.randomUUID();
    await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 5_000n, shareOfSpendable: 1n, minMicros: 1n });
    const early = spend(accountId, id, 700n);
    await settleAllowanceSpends(database.sql, [early]);
    // Past the reaper's bound (plus the allowance's own age): the holder died without returning the rest.
    await database.sql.query(`UPDATE reservations SET created_at = now() - interval '20 minutes' WHERE id = $1::uuid`, [id]);
    expect(await reapReservations(database.sql, { olderThanMs: 15 * 60_000 })).toBeGreaterThanOrEqual(1);
    expect(await allowanceRow(id)).toMatchObject({ state: 'voided' });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 49_300n, reservedMicros: 0n });
    const late = spend(accountId, id, 900n);
    expect((await settleAllowanceSpends(database.sql, [late])).get(late.reservationId)).toBe('settled');
    const [row] = await database.sql.query<{ kind: string; micros_delta: unknown; error_code: string }>(
      `SELECT kind, micros_delta::text AS micros_delta, metadata->>'errorCode' AS error_code FROM ledger_entries WHERE reservation_id = $1::uuid`,
      [late.reservationId]);
    expect(row).toEqual({ kind: 'void', micros_delta: '0', error_code: 'reservation_expired' });
    expect(await releaseAllowance(database.sql, { allowanceId: id, accountId, amountMicros: 100n, final: true })).toBe(false);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 49_300n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('leaves a young allowance alone even when its requests would be past the bound', async () => {
    const accountId = await fundedAccount(50_000n);
    const id = crypto.randomUUID();
    await openAllowance(database.sql, { allowanceId: id, accountId, maxMicros: 5_000n, shareOfSpendable: 1n, minMicros: 1n });
    // Older than the bound, but not older than bound + ALLOWANCE_MAX_AGE_MS: its holder may still pay from it.
    await database.sql.query(`UPDATE reservations SET created_at = now() - interval '15 minutes 2 seconds' WHERE id = $1::uuid`, [id]);
    await reapReservations(database.sql, { olderThanMs: 15 * 60_000 });
    expect(await allowanceRow(id)).toMatchObject({ state: 'pending', amountMicros: 5_000n });
    expect(await releaseAllowance(database.sql, { allowanceId: id, accountId, amountMicros: 5_000n, final: true })).toBe(true);
    expect(await allowanceRow(id)).toMatchObject({ state: 'committed', amountMicros: 0n });
  });

  it('a keeper serves 200 concurrent callers on one hot wallet until it is dry: exact books, no one refused money they have', async () => {
    const cost = 100n;
    const funded = 200_000n + 37n;
    const accountId = await fundedAccount(funded);
    const keeper = createAllowanceKeeper(database.sql, { ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 20_000n, hotRequestsPerSecond: 5, minRequests: 4 });
    const request = () => requestOf(accountId)(cost);
    const settlements: AllowanceSpend[] = [];
    const alone: string[] = [];
    let admitted = 0;
    let voided = 0;
    let dry = false;
    let fromAllowance = 0;
    await Promise.all(Array.from({ length: 200 }, async (_, caller) => {
      while (!dry) {
        const input = request();
        const result = await keeper.reserve(input);
        if (!result.ok) {
          dry = true;
          return;
        }
        admitted += 1;
        // Every seventh caller's request fails upstream and is voided.
        const action = caller % 7 === 0 ? 'void' : 'commit';
        if (action === 'void') voided += 1;
        const payment = keeper.settled(input.reservationId, action);
        if (payment) {
          fromAllowance += 1;
          settlements.push({
            reservationId: input.reservationId, allowanceId: payment.id, accountId, apiKeyId: null, amountMicros: BigInt(payment.amountMicros),
            provider: payment.provider, model: payment.model, characters: payment.characters, action, errorCode: action === 'void' ? 'upstream_error' : undefined, source: 'worker',
          });
        } else alone.push(`${action}:${input.reservationId}`);
        if (settlements.length >= 50) await settleAllowanceSpends(database.sql, settlements.splice(0));
      }
    }));
    await settleAllowanceSpends(database.sql, settlements.splice(0));
    for (const entry of alone) {
      const [action, reservationId] = entry.split(':') as ['commit' | 'void', string];
      if (action === 'commit') await commitReservation(database.sql, { reservationId, source: 'worker' });
      else await voidReservation(database.sql, { reservationId, source: 'worker', errorCode: 'upstream_error' });
    }
    await keeper.close();
    expect(fromAllowance).toBeGreaterThan(admitted / 2);
    const committed = BigInt(admitted - voided) * cost;
    const credits = await getCredits(database.sql, accountId);
    expect(credits).toEqual({ balanceMicros: funded - committed, reservedMicros: 0n });
    // Refused only once the wallet could not pay for one more request.
    expect(credits!.balanceMicros).toBeLessThan(cost + BigInt(voided) * cost + 1n);
    const [open] = await database.sql.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM reservations WHERE account_id = $1::uuid AND state = 'pending'`, [accountId]);
    expect(Number(open!.count)).toBe(0);
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  /**
   * The database as a keeper sees it, with `hook` awaited at each statement of the given name: before it
   * is sent, or after it has answered and before its caller hears.
   */
  function hookedStatements(name: string, when: 'before' | 'after', hook: () => Promise<unknown>): SqlClient {
    const wrap = (client: SqlClient): SqlClient => ({
      ...client,
      // Background work (the keeper's returns) goes through the wrapper too.
      background: undefined,
      serial: client.serial,
      query: async <Row,>(text: string, values?: SqlValue[], statement?: string) => {
        if (when === 'before' && statement === name) await hook();
        const rows = await client.query<Row>(text, values, statement);
        if (when === 'after' && statement === name) await hook();
        return rows;
      },
      transaction: (work) => client.transaction((inner) => work(wrap(inner))),
    });
    return wrap(database.sql);
  }

  /** The named statement waits for `gate` (see hookedStatements); `reached` resolves when it gets there. */
  function holdingStatement(name: string, when: 'before' | 'after') {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let arrived!: () => void;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const sql = hookedStatements(name, when, () => {
      arrived();
      return gate;
    });
    return { sql, reached, open: () => open() };
  }

  /** The database with `hook` run once, at the first statement of the given name (see hookedStatements). */
  function hookedStatement(name: string, when: 'before' | 'after', hook: () => Promise<unknown>): SqlClient {
    let fired = false;
    return hookedStatements(name, when, async () => {
      if (fired) return;
      fired = true;
      await hook();
    });
  }

  it('a request the allowance cannot cover waits for the money the keeper is still returning before it is refused', async () => {
    // 1,000 funded; the allowance takes 500 (half of what is spendable) and pays 100, so 400 go back
    // when the next request, of 600, does not fit. While that return is on its way the wallet shows
    // only 500 spendable, yet the account can pay the 600.
    const accountId = await fundedAccount(1_000n);
    const held = holdingStatement('ledger_allowance_lock', 'before');
    const keeper = createAllowanceKeeper(held.sql, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 500n, shareOfSpendable: 2n, minRequests: 2, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const request = requestOf(accountId);
    const first = request(100n);
    expect(await keeper.reserve(first)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    const second = request(600n);
    const answer = keeper.reserve(second);
    await held.reached;
    // PostgreSQL answers the request meanwhile; PGlite runs one transaction at a time, so there the
    // request's own reservation waits behind the return.
    setTimeout(held.open, 100);
    expect(await answer).toEqual({ ok: true });
    const payment = keeper.settled(first.reservationId, 'commit')!;
    await settleAllowanceSpends(database.sql, [{ ...first, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    expect(keeper.settled(second.reservationId, 'commit')).toBeUndefined();
    await commitReservation(database.sql, { reservationId: second.reservationId, source: 'worker' });
    await keeper.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 300n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('a request the wallet refuses waits for an allowance being opened and has its money returned first', async () => {
    // The uncapped request's allowance takes all 1,000; the database has granted it but the keeper has
    // not heard back when a capped key's request (never paid from an allowance) reserves on its own.
    const accountId = await fundedAccount(1_000n);
    const key = await createApiKey(database.prisma, { accountId, name: 'capped', dailySpendCapMicros: 1_000_000n });
    const held = holdingStatement('ledger_allowance_open', 'after');
    const keeper = createAllowanceKeeper(held.sql, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 1_000n, shareOfSpendable: 1n, minRequests: 1, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const base = { accountId, provider: 'openai', model: 'tts-1', characters: 5, amountMicros: 100n };
    const uncapped: ReserveCreditInput = { ...base, reservationId: crypto.randomUUID(), apiKeyId: null };
    const capped: ReserveCreditInput = { ...base, reservationId: crypto.randomUUID(), apiKeyId: key.id, dailySpendCapMicros: 1_000_000n };
    const first = keeper.reserve(uncapped);
    await held.reached;
    const second = keeper.reserve(capped);
    setTimeout(held.open, 100);
    expect(await first).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    expect(await second).toEqual({ ok: true });
    const payment = keeper.settled(uncapped.reservationId, 'commit')!;
    await settleAllowanceSpends(database.sql, [{ ...uncapped, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    await commitReservation(database.sql, { reservationId: capped.reservationId, source: 'worker' });
    await keeper.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 800n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('opens the next allowance while the current one still pays, so no request waits between them', async () => {
    const accountId = await fundedAccount(100_000n);
    // The second opening (the renewal) is held until the test lets it through.
    let opens = 0;
    let letThrough!: () => void;
    const gate = new Promise<void>((resolve) => (letThrough = resolve));
    let renewalReached!: () => void;
    const reached = new Promise<void>((resolve) => (renewalReached = resolve));
    const sql: SqlClient = {
      ...database.sql,
      background: undefined,
      serial: database.sql.serial,
      query: (text, values, statement) => {
        if (statement === 'ledger_allowance_open' && ++opens === 2) {
          renewalReached();
          return gate.then(() => database.sql.query(text, values, statement));
        }
        return database.sql.query(text, values, statement);
      },
    };
    const keeper = createAllowanceKeeper(sql, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 1_000n, shareOfSpendable: 1n, minRequests: 1, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const request = requestOf(accountId);
    const served: Array<{ input: ReserveCreditInput; allowanceId: string }> = [];
    const pay = async () => {
      const input = request(100n);
      const result = await keeper.reserve(input);
      expect(result).toMatchObject({ ok: true, allowanceId: expect.any(String) });
      served.push({ input, allowanceId: (result as { allowanceId: string }).allowanceId });
    };
    // 1,000 granted; the eighth request leaves 200, under a quarter: the renewal starts in the background.
    for (let index = 0; index < 7; index += 1) await pay();
    expect(opens).toBe(1);
    await pay();
    await reached;
    // While it is held, the current allowance keeps paying without a wait.
    await pay();
    expect(new Set(served.map((entry) => entry.allowanceId)).size).toBe(1);
    letThrough();
    // Once it has landed, the next request is paid from the new allowance; the old one returns its last 100.
    await expect.poll(() => keeper.stats().opened, { timeout: 5_000 }).toBe(2);
    await pay();
    const [first, second] = [...new Set(served.map((entry) => entry.allowanceId))];
    expect(second).toBeDefined();
    expect(served.at(-1)!.allowanceId).toBe(second);
    await expect.poll(async () => (await allowanceRow(first!))?.amountMicros, { timeout: 5_000 }).toBe(900n);
    for (const { input } of served) {
      const payment = keeper.settled(input.reservationId, 'commit')!;
      await settleAllowanceSpends(database.sql, [{ ...input, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    }
    await keeper.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 99_000n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  /** Keepers of several data planes on one database, linked as Redis links them (every ask reaches all). */
  function linkedKeepers(count: number, settings: AllowanceSettings) {
    const asks: string[] = [];
    const keepers: AllowanceKeeper[] = [];
    const peers: AllowancePeers = {
      ask(accountId) {
        asks.push(accountId);
        for (const keeper of keepers) void keeper.returnHeld(accountId);
      },
    };
    for (let index = 0; index < count; index += 1) keepers.push(createAllowanceKeeper(database.sql, settings, undefined, peers));
    return { keepers, asks };
  }

  it('a data plane refused a request asks the others to return what they hold of the account, and is served from it', async () => {
    // 2,000 funded. A's allowance takes 1,000 (half of what is spendable), B's 500 of the rest. B's
    // next request, of 1,200, fits neither B's allowance (400 left, returned) nor the wallet (900
    // spendable) until A returns its 900 unspent.
    const accountId = await fundedAccount(2_000n);
    const { keepers: [a, b], asks } = linkedKeepers(2, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 1_000n, shareOfSpendable: 2n, minRequests: 2, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const request = requestOf(accountId);
    const first = request(100n);
    const second = request(100n);
    const fromA = await a!.reserve(first);
    expect(fromA).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    expect(await b!.reserve(second)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    expect((await allowanceStanding(database.sql, accountId)).heldMicros).toBe(1_500n);
    expect((await allowanceStanding(database.sql, accountId, [(fromA as { allowanceId: string }).allowanceId])).heldMicros).toBe(500n);
    const large = request(1_200n);
    expect(await b!.reserve(large)).toEqual({ ok: true });
    expect(asks).toEqual([accountId]);
    // A holds nothing now, and opens no new allowance for the account for a while.
    expect(a!.stats().unspentMicros).toBe(0n);
    const later = request(100n);
    expect(await a!.reserve(later)).toEqual({ ok: true });
    for (const [keeper, input] of [[a!, first], [b!, second]] as const) {
      const payment = keeper.settled(input.reservationId, 'commit')!;
      await settleAllowanceSpends(database.sql, [{ ...input, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    }
    for (const input of [large, later]) await commitReservation(database.sql, { reservationId: input.reservationId, source: 'worker' });
    await Promise.all([a!.close(), b!.close()]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 2_000n - 1_500n, reservedMicros: 0n });
    expect((await allowanceStanding(database.sql, accountId)).heldMicros).toBe(0n);
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('a request the wallet cannot pay is refused without asking anyone when no other data plane holds an allowance of the account, and after asking when it stays short', async () => {
    const accountId = await fundedAccount(1_000n);
    const { keepers: [a, b], asks } = linkedKeepers(2, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 1_000n, shareOfSpendable: 1n, minRequests: 1, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const request = requestOf(accountId);
    // Nothing open: refused at once.
    expect(await b!.reserve(request(5_000n))).toEqual({ ok: false, reason: 'insufficient_credit' });
    expect(asks).toEqual([]);
    // A's allowance takes all 1,000 and pays 600 of it; what it returns (400) is not enough for 500.
    const paid = request(600n);
    expect(await a!.reserve(paid)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    // On A itself: its own allowance holds only the money of its request in flight, so no one is asked.
    expect(await a!.reserve(request(500n))).toEqual({ ok: false, reason: 'insufficient_credit' });
    expect(asks).toEqual([]);
    // On B: A's allowance is still open (its request in flight), so A is asked, and B still refused.
    expect(await b!.reserve(request(500n))).toEqual({ ok: false, reason: 'insufficient_credit' });
    expect(asks.length).toBeGreaterThan(0);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 1_000n, reservedMicros: 600n });
    const payment = a!.settled(paid.reservationId, 'commit')!;
    await settleAllowanceSpends(database.sql, [{ ...paid, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    await Promise.all([a!.close(), b!.close()]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 400n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('a refused request is tried again when this process returned money of the account while the wallet was refusing it', async () => {
    // 1,000 funded; the allowance takes 500 and pays 100. A capped key's request of 700 (never paid
    // from an allowance) is refused by the wallet (500 spendable); just then another request of this
    // process returns the allowance's 400, before the refused one looks for money on its way.
    const accountId = await fundedAccount(1_000n);
    const key = await createApiKey(database.prisma, { accountId, name: 'capped', dailySpendCapMicros: 1_000_000n });
    let keeper!: AllowanceKeeper;
    const sql = hookedStatement('ledger_reserve_capped', 'after', () => keeper.returnHeld(accountId));
    keeper = createAllowanceKeeper(sql, {
      ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 500n, shareOfSpendable: 2n, minRequests: 2, hotRequestsPerSecond: 1, idleMs: 60_000,
    });
    const first = requestOf(accountId)(100n);
    expect(await keeper.reserve(first)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    const capped: ReserveCreditInput = { ...requestOf(accountId)(700n), apiKeyId: key.id, dailySpendCapMicros: 1_000_000n };
    expect(await keeper.reserve(capped)).toEqual({ ok: true });
    const payment = keeper.settled(first.reservationId, 'commit')!;
    await settleAllowanceSpends(database.sql, [{ ...first, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    await commitReservation(database.sql, { reservationId: capped.reservationId, source: 'worker' });
    await keeper.close();
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 200n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('a refused request is tried again when another data plane returned its allowance just before the refused one looked', async () => {
    // As above across data planes: A holds 900 unspent, B 400. B's request of 1,200 is refused, B
    // returns its 400 and is refused again; then A returns its 900 (asked by another request of B, say)
    // just before B asks the database what other data planes hold: nothing now, and the wallet can pay.
    const accountId = await fundedAccount(2_000n);
    const settings = { ...DEFAULT_ALLOWANCE_SETTINGS, maxMicros: 1_000n, shareOfSpendable: 2n, minRequests: 2, hotRequestsPerSecond: 1, idleMs: 60_000 };
    const asks: string[] = [];
    const a = createAllowanceKeeper(database.sql, settings);
    const peers: AllowancePeers = { ask: (asked) => void asks.push(asked) };
    const b = createAllowanceKeeper(hookedStatement('ledger_allowance_standing', 'before', () => a.returnHeld(accountId)), settings, undefined, peers);
    const request = requestOf(accountId);
    const [first, second, large] = [request(100n), request(100n), request(1_200n)];
    expect(await a.reserve(first)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    expect(await b.reserve(second)).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    // A's request is settled, so A's return is its last: the database then shows no allowance of A open.
    const settle = async (keeper: AllowanceKeeper, input: ReserveCreditInput) => {
      const payment = keeper.settled(input.reservationId, 'commit')!;
      await settleAllowanceSpends(database.sql, [{ ...input, allowanceId: payment.id, action: 'commit', source: 'worker' }]);
    };
    await settle(a, first);
    expect(await b.reserve(large)).toEqual({ ok: true });
    expect(asks).toEqual([]);
    expect(a.stats()).toMatchObject({ allowances: 0, unspentMicros: 0n });
    await settle(b, second);
    await commitReservation(database.sql, { reservationId: large.reservationId, source: 'worker' });
    await Promise.all([a.close(), b.close()]);
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 600n, reservedMicros: 0n });
    expect((await auditWallet(database.sql, accountId)).consistent).toBe(true);
  });

  it('a keeper never takes an allowance for a key with spend caps, a free request, or a cold account', async () => {
    const accountId = await fundedAccount(10_000_000n);
    const key = await createApiKey(database.prisma, { accountId, name: 'capped', dailySpendCapMicros: 1_000_000n });
    const keeper = createAllowanceKeeper(database.sql, { ...DEFAULT_ALLOWANCE_SETTINGS, hotRequestsPerSecond: 2 });
    const base = { accountId, apiKeyId: null, provider: 'openai', model: 'tts-1', characters: 5 };
    // Cold: the first request reserves on its own (free and capped requests do not count towards heat).
    expect(await keeper.reserve({ ...base, reservationId: crypto.randomUUID(), amountMicros: 100n })).toEqual({ ok: true });
    expect(await keeper.reserve({ ...base, reservationId: crypto.randomUUID(), amountMicros: 0n })).toEqual({ ok: true });
    const capped = { ...base, apiKeyId: key.id, dailySpendCapMicros: 1_000_000n };
    expect(await keeper.reserve({ ...capped, reservationId: crypto.randomUUID(), amountMicros: 100n })).toEqual({ ok: true });
    // Hot now: an uncapped request is paid from an allowance; a capped one still reserves alone.
    const hot = await keeper.reserve({ ...base, reservationId: crypto.randomUUID(), amountMicros: 100n });
    expect(hot).toMatchObject({ ok: true, allowanceId: expect.any(String) });
    expect(await keeper.reserve({ ...capped, reservationId: crypto.randomUUID(), amountMicros: 100n })).toEqual({ ok: true });
    expect(await keeper.reserve({ ...base, reservationId: crypto.randomUUID(), amountMicros: 0n })).toEqual({ ok: true });
    // (10,000,000 − 200 already reserved) ÷ 20, less the request it paid.
    expect(keeper.stats()).toEqual({ allowances: 1, unspentMicros: 499_990n - 100n, opened: 1, payments: 1 });
    const [spent] = await database.sql.query<{ spent: unknown }>(
      `SELECT sum(spent_micros)::text AS spent FROM key_spend WHERE api_key_id = $1::uuid`, [key.id]);
    expect(String(spent!.spent)).toBe('200');
    await keeper.close();
    // Returned, except the request still in flight.
    expect(keeper.stats()).toMatchObject({ allowances: 1, unspentMicros: 0n });
    expect(await getCredits(database.sql, accountId)).toEqual({ balanceMicros: 10_000_000n, reservedMicros: 100n + 100n + 100n + 100n });
  });
});
