// The ledger alone, without HTTP: concurrent callers reserve on one wallet until it runs dry, then the books
// are checked. Scenario 5 reports it beside the rate through the router's whole speech path (the wallet's own
// ceiling on this machine, in the same run), and `ledger-micro.js` runs it on its own.
import crypto from 'node:crypto';
import { auditWallet, createUser, getCredits, grantCredit, openDatabase, reserveCredit, reserveCreditAlone, type Database, type ReserveCreditInput } from '@voice-router/ledger';
import { createTestDatabase } from '@voice-router/test-support';

export interface LedgerAloneResult {
  /** Admitted reservations ÷ seconds until the wallet ran dry. */
  perSecond: number;
  admitted: number;
  /** Exactly the admitted amount reserved, and the audit holds. */
  exact: boolean;
}

/** A new account with `micros` of credit; its id. */
export async function fundedAccount(database: Database, micros: bigint): Promise<string> {
  const user = await createUser(database.prisma, { email: `${crypto.randomUUID()}@example.com` });
  await grantCredit(database.sql, { accountId: user.personalAccountId, amountMicros: micros, source: 'admin' });
  return user.personalAccountId;
}

/** A reservation of 100 micro-dollars, as a short request's would be. */
export const benchReservation = (accountId: string): ReserveCreditInput => ({
  reservationId: crypto.randomUUID(), accountId, apiKeyId: null, amountMicros: 100n, provider: 'openai', model: 'bench', characters: 7,
});

/**
 * `concurrency` callers on one wallet funded for `reservations` of them, each reserving again as soon as its
 * last one is answered: batched (`reserveCredit`, the statement a data plane uses for a request its allowance
 * does not cover, one per turn of the event loop) or one statement each (`reserveCreditAlone`).
 */
export async function ledgerAloneHotWallet(
  database: Database, options: { reservations: number; concurrency: number; batched: boolean },
): Promise<LedgerAloneResult> {
  const accountId = await fundedAccount(database, BigInt(options.reservations) * 100n);
  const reserve = options.batched ? reserveCredit : reserveCreditAlone;
  let admitted = 0;
  let dry = false;
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, async () => {
    while (!dry) {
      const result = await reserve(database.sql, benchReservation(accountId));
      if (result.ok) admitted += 1;
      else dry = true;
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  const credits = await getCredits(database.sql, accountId);
  const audit = await auditWallet(database.sql, accountId);
  const exact = admitted === options.reservations && credits!.reservedMicros === BigInt(admitted) * 100n && audit.consistent;
  return { perSecond: Math.round(admitted / seconds), admitted, exact };
}

/**
 * A new, empty ledger: a new database on the PostgreSQL server `databaseUrl` names, or PGlite in memory (on its
 * own thread) without one. `close` closes it and drops the PostgreSQL database.
 */
export async function openFreshLedger(databaseUrl: string | undefined): Promise<{ database: Database; close(): Promise<void> }> {
  if (!databaseUrl) {
    const database = await openDatabase({ kind: 'pglite-memory' });
    return { database, close: () => database.close() };
  }
  const test = await createTestDatabase(databaseUrl);
  try {
    const database = await openDatabase({ kind: 'postgres', url: test.url, poolSize: 20 });
    return {
      database,
      async close() {
        try {
          await database.close();
        } finally {
          await test.drop();
        }
      },
    };
  } catch (error) {
    await test.drop();
    throw error;
  }
}

/**
 * Scenario 5's comparison: the ledger alone on the kind of database the mode runs, a new one opened for it
 * (PGlite in memory for the embedded mode; a new database on the scaled router's PostgreSQL server),
 * batched as the data plane reserves, then closed.
 */
export async function measureLedgerAlone(
  databaseUrl: string | undefined, options: { reservations: number; concurrency: number },
): Promise<LedgerAloneResult> {
  const ledger = await openFreshLedger(databaseUrl);
  try {
    return await ledgerAloneHotWallet(ledger.database, { ...options, batched: true });
  } finally {
    await ledger.close();
  }
}
