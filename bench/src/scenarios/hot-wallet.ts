// Scenario 5: one hot wallet. 200 clients send short speech requests on one account, funded for about
// `seconds` of traffic, until the wallet runs dry; then the books are checked: exactly the successes
// were charged, nothing is left reserved, the audit holds, and the balance never went below zero.
import pg from 'pg';
import type { RouterSystem } from '../infra/router-system.js';
import type { LoadAccount } from '../mode-setup.js';
import { StreamClient } from '../load/ttfb-load.js';
import { costMicros, routerSpeech } from '../load/targets.js';
import { round } from '../report/stats.js';
import type { LedgerAloneResult } from './ledger-alone.js';

export interface HotWalletRow {
  mode: string;
  concurrency: number;
  costMicros: number;
  grantedMicros: number;
  successes: number;
  rejected: number;
  otherErrors: number;
  seconds: number;
  reservationsPerSecond: number;
  check: {
    balanceMicros: number;
    reservedMicros: number;
    expectedBalanceMicros: number;
    auditConsistent: boolean;
    lowestBalanceAfterMicros?: number;
    passed: boolean;
  };
  /** The warm-up on another account before the wallet is sized: its length, and its first and last slices' rates. */
  warmup?: { seconds: number; firstPerSecond: number; lastPerSecond: number };
  /** The same wallet rule without HTTP, measured after the scenario on a new database of the mode's kind (ledger-alone.ts). */
  ledgerAlone?: LedgerAloneResult & { reservations: number };
}

async function credits(baseUrl: string, key: string): Promise<{ balanceMicros: number; reservedMicros: number }> {
  const response = await fetch(`${baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as { balanceMicros: number; reservedMicros: number };
}

async function lowestBalanceAfter(databaseUrl: string, accountId: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query('SELECT min(micros_balance_after)::text AS lowest FROM ledger_entries WHERE account_id = $1::uuid', [accountId]);
    return Number(result.rows[0].lowest);
  } finally {
    await client.end();
  }
}

/**
 * Whether a warm-up's rate has settled: its last two slices agree within a tenth. A router that sat idle
 * for a few minutes (in the full run both routers wait out scenario 2p, which loads only their twins)
 * served its first second at a third of its rate and took a few more to recover, the load generator too
 * (their CPU per request 2.2-3.9 times the warm figure, with about three times the minor page faults; session 51).
 */
export function settledRate(rates: readonly number[]): boolean {
  if (rates.length < 2) return false;
  const last = rates[rates.length - 1]!;
  const previous = rates[rates.length - 2]!;
  return Math.abs(last - previous) <= 0.1 * Math.max(last, previous);
}

export async function runHotWallet(
  router: RouterSystem, warmKey: string, hotWallet: LoadAccount,
  options: { concurrency: number; seconds: number; warmupSliceSeconds: number; warmupMaxSeconds: number },
): Promise<HotWalletRow> {
  const cost = costMicros('short');
  const client = new StreamClient(router.baseUrl, options.concurrency);
  try {
    // Warm up on another account until its rate settles, and size the hot wallet from the last slice's
    // rate so it runs dry after about `seconds`.
    const rates: number[] = [];
    const warmupStarted = performance.now();
    do {
      const slice = await client.run(() => routerSpeech(warmKey, 'short'), options.concurrency, options.warmupSliceSeconds);
      rates.push(slice.samples.length / slice.seconds);
    } while (!settledRate(rates) && (rates.length + 1) * options.warmupSliceSeconds <= options.warmupMaxSeconds);
    const expectedRate = rates[rates.length - 1]!;
    const warmup = { seconds: round((performance.now() - warmupStarted) / 1000, 1), firstPerSecond: round(rates[0]!, 0), lastPerSecond: round(expectedRate, 0) };
    const affordable = Math.max(options.concurrency * 3, Math.ceil(expectedRate * options.seconds));
    const grantedMicros = affordable * cost;
    // A seeded key with generous per-key limits (one made through the admin CLI gets the defaults, and
    // 200 clients on it would measure 429s); funded now through the admin CLI.
    await router.admin('grant', '--email', hotWallet.email, '--usd', (grantedMicros / 1e6).toFixed(6));
    const hot = hotWallet;

    const spec = routerSpeech(hot.key, 'short');
    let successes = 0;
    let rejected = 0;
    let otherErrors = 0;
    let exhaustedAt: number | undefined;
    const started = performance.now();
    const giveUpAt = started + options.seconds * 4000;
    const worker = async () => {
      while (exhaustedAt === undefined && performance.now() < giveUpAt) {
        try {
          const { status } = await client.once(spec);
          if (status === 200) successes += 1;
          else if (status === 402) {
            rejected += 1;
            exhaustedAt ??= performance.now();
          } else otherErrors += 1;
        } catch {
          otherErrors += 1;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    const seconds = ((exhaustedAt ?? performance.now()) - started) / 1000;

    // Settlement is asynchronous (the worker, or in-process): wait until nothing is reserved.
    let state = await credits(router.baseUrl, hot.key);
    const settleDeadline = Date.now() + 60_000;
    while (state.reservedMicros !== 0 && Date.now() < settleDeadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = await credits(router.baseUrl, hot.key);
    }
    const audit = await router.admin('audit', '--email', hot.email);
    const expectedBalanceMicros = grantedMicros - successes * cost;
    const lowest = router.databaseUrl ? await lowestBalanceAfter(router.databaseUrl, hot.accountId) : undefined;
    const passed = state.balanceMicros === expectedBalanceMicros && state.reservedMicros === 0 && state.balanceMicros >= 0
      && audit.consistent === true && (lowest === undefined || lowest >= 0) && exhaustedAt !== undefined && state.balanceMicros < cost;
    return {
      mode: router.mode,
      concurrency: options.concurrency,
      costMicros: cost,
      grantedMicros,
      successes,
      rejected,
      otherErrors,
      seconds: round(seconds, 2),
      reservationsPerSecond: round(successes / seconds, 0),
      warmup,
      check: {
        balanceMicros: state.balanceMicros,
        reservedMicros: state.reservedMicros,
        expectedBalanceMicros,
        auditConsistent: audit.consistent === true,
        ...(lowest === undefined ? {} : { lowestBalanceAfterMicros: lowest }),
        passed,
      },
    };
  } finally {
    await client.close();
  }
}
