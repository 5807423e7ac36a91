import { describe, expect, it } from 'vitest';
import { announceSkip, postgresUrl } from '@voice-router/test-support';
import { measureLedgerAlone } from './ledger-alone.js';

if (!postgresUrl()) announceSkip('the ledger alone on PostgreSQL (bench)', 'DATABASE_URL is not set');

// Scenario 5's comparison on both kinds of database: it must admit exactly what the wallet holds and find the books exact.
describe('the ledger alone (scenario 5)', () => {
  it('admits exactly what the wallet was funded for on PGlite, and finds the books exact', async () => {
    const result = await measureLedgerAlone(undefined, { reservations: 300, concurrency: 50 });
    expect(result).toEqual({ perSecond: expect.any(Number), admitted: 300, exact: true });
    expect(result.perSecond).toBeGreaterThan(0);
  }, 120_000);

  it.runIf(postgresUrl())('does the same on a new database of the PostgreSQL server it is given', async () => {
    const result = await measureLedgerAlone(postgresUrl(), { reservations: 300, concurrency: 50 });
    expect(result).toEqual({ perSecond: expect.any(Number), admitted: 300, exact: true });
  }, 120_000);
});
