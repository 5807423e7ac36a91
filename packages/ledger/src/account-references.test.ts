// Ledger rows and reservations name an existing account, and an account never goes away: the rule the
// foreign keys kept, now checked once per statement (migration 20261129100000).
import crypto from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import type { Database } from './database.js';
import { describeOnEachDatabase } from './__fixtures__/each-database.js';
import { auditWallet, commitReservations, createUser, grantCredit, reserveCredit } from './index.js';

describeOnEachDatabase('account references', (openedDatabase) => {
  let database: Database;
  beforeAll(() => {
    database = openedDatabase();
  });

  async function fundedAccount() {
    const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
    await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: 10_000n, source: 'admin' });
    return user.personalAccountId;
  }

  async function refusal(statement: Promise<unknown>) {
    const error = await statement.then(() => undefined, (caught: unknown) => caught as { code?: string; constraint?: string });
    expect(error, 'the statement was refused').toBeDefined();
    return { code: error!.code, constraint: error!.constraint };
  }

  async function count(table: 'ledger_entries' | 'reservations', accountIds: string[]) {
    const [row] = await database.sql.query<{ n: string }>(`SELECT count(*)::text AS n FROM ${table} WHERE account_id = ANY($1::uuid[])`, [`{${accountIds.join(',')}}`]);
    return Number(row!.n);
  }

  it('refuses a ledger insert that names an unknown account, and the statement writes none of its rows', async () => {
    const known = await fundedAccount();
    const unknown = crypto.randomUUID();
    const before = await count('ledger_entries', [known]);
    const insert = database.sql.query(
      `INSERT INTO ledger_entries (account_id, kind, micros_delta, micros_balance_after, source)
       SELECT account_id, 'top-up', 0, 10000, 'admin' FROM unnest($1::uuid[]) AS account_id`,
      [`{${known},${unknown},${known}}`],
    );
    expect(await refusal(insert)).toEqual({ code: '23503', constraint: 'ledger_entries_account_id_fkey' });
    expect(await count('ledger_entries', [known, unknown])).toBe(before);
    expect((await auditWallet(database.sql, known)).consistent).toBe(true);
  });

  it('refuses a reservation insert that names an unknown account, and the statement writes none of its rows', async () => {
    const known = await fundedAccount();
    const unknown = crypto.randomUUID();
    const insert = database.sql.query(
      `INSERT INTO reservations (id, account_id, amount_micros, provider, model, characters)
       SELECT gen_random_uuid(), account_id, 0, 'openai', 'tts-1', 1 FROM unnest($1::uuid[]) AS account_id`,
      [`{${known},${unknown}}`],
    );
    expect(await refusal(insert)).toEqual({ code: '23503', constraint: 'reservations_account_id_fkey' });
    expect(await count('reservations', [known, unknown])).toBe(0);
  });

  it('writes rows for several known accounts in one statement, as settlement does', async () => {
    const accounts = [await fundedAccount(), await fundedAccount(), await fundedAccount()];
    const reservations = [];
    for (const accountId of [...accounts, ...accounts]) {
      const reservationId = crypto.randomUUID();
      const reserved = await reserveCredit(database.sql, {
        reservationId, accountId, apiKeyId: null, amountMicros: 100n, provider: 'openai', model: 'tts-1', characters: 10,
      });
      expect(reserved.ok).toBe(true);
      reservations.push(reservationId);
    }
    const outcomes = await commitReservations(database.sql, reservations.map((reservationId) => ({ reservationId, source: 'request' })));
    expect([...outcomes.values()]).toEqual(Array(6).fill('settled'));
    for (const accountId of accounts) {
      const audit = await auditWallet(database.sql, accountId);
      expect(audit.consistent).toBe(true);
      expect(audit.balanceMicros).toBe(9_800n);
    }
  });

  it('never deletes, truncates or re-keys an account, and still lets its other columns change', async () => {
    const accountId = await fundedAccount();
    // An account nothing refers to yet: only this rule keeps it, no wallet or key restricts it.
    const [bare] = await database.sql.query<{ id: string }>(`INSERT INTO accounts (id, name, kind) VALUES (gen_random_uuid(), 'bare', 'personal') RETURNING id::text AS id`);
    for (const id of [accountId, bare!.id]) {
      expect(await refusal(database.sql.query('DELETE FROM accounts WHERE id = $1::uuid', [id])))
        .toEqual({ code: '23503', constraint: 'accounts_never_deleted' });
      expect(await refusal(database.sql.query('UPDATE accounts SET id = gen_random_uuid() WHERE id = $1::uuid', [id])))
        .toEqual({ code: '23503', constraint: 'accounts_id_unchanged' });
    }
    expect(await refusal(database.sql.query('TRUNCATE accounts CASCADE'))).toMatchObject({ code: '23503' });
    await database.sql.query(`UPDATE accounts SET name = 'renamed', id = id WHERE id = $1::uuid`, [bare!.id]);
    const rows = await database.sql.query<{ name: string }>('SELECT name FROM accounts WHERE id = ANY($1::uuid[]) ORDER BY name', [`{${accountId},${bare!.id}}`]);
    expect(rows.map((row) => row.name)).toContain('renamed');
    expect(rows).toHaveLength(2);
    expect(await count('ledger_entries', [accountId])).toBe(1);
  });

  it('never moves a reservation to another account, and settles it as before', async () => {
    const [from, to] = [await fundedAccount(), await fundedAccount()];
    const reservationId = crypto.randomUUID();
    await reserveCredit(database.sql, {
      reservationId, accountId: from, apiKeyId: null, amountMicros: 100n, provider: 'openai', model: 'tts-1', characters: 10,
    });
    expect(await refusal(database.sql.query('UPDATE reservations SET account_id = $2::uuid WHERE id = $1::uuid', [reservationId, to])))
      .toEqual({ code: '23503', constraint: 'reservations_account_id_unchanged' });
    const outcomes = await commitReservations(database.sql, [{ reservationId, source: 'request' }]);
    expect(outcomes.get(reservationId)).toBe('settled');
    expect((await auditWallet(database.sql, from)).balanceMicros).toBe(9_900n);
    expect((await auditWallet(database.sql, to)).balanceMicros).toBe(10_000n);
  });
});
