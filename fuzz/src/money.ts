// The money check: after the run (and once settlement has drained) each wallet's balance moved by
// exactly the sum of X-Router-Cost-Micros of the complete 200 speech answers paid with its key,
// nothing stays reserved, and the operator's audit finds the ledger consistent.
import { SPEECH_HEADERS } from '@voice-router/contracts';
import type { FuzzAccount } from './accounts.js';
import type { FuzzRequest, FuzzResponse } from './http-client.js';
import type { ServiceUnderFuzz } from './service.js';

interface Wallet {
  balanceMicros: number;
  reservedMicros: number;
}

export interface MoneyTracker {
  record(request: FuzzRequest, response: FuzzResponse): void;
  /** Costs charged per account email so far. */
  charged(): Map<string, bigint>;
  verify(service: ServiceUnderFuzz): Promise<string[]>;
}

async function wallet(baseUrl: string, key: string): Promise<Wallet> {
  const response = await fetch(`${baseUrl}/v1/credits`, { headers: { authorization: `Bearer ${key}` } });
  if (response.status !== 200) throw new Error(`GET /v1/credits answered ${response.status}`);
  return (await response.json()) as Wallet;
}

export async function trackMoney(baseUrl: string, accounts: FuzzAccount[]): Promise<MoneyTracker> {
  const before = new Map<string, Wallet>();
  for (const account of accounts) before.set(account.email, await wallet(baseUrl, account.key));
  const costs = new Map<string, bigint>(accounts.map((account) => [account.email, 0n]));

  return {
    record(request, response) {
      if (request.route !== 'POST /v1/audio/speech' || response.kind !== 'answered' || response.status !== 200 || response.truncated) return;
      // A 200 proves the key authenticated; the one whose secret the header carries paid.
      const payer = accounts.find((account) => account.keys.some((key) => request.headers.authorization?.includes(key)));
      const cost = response.headers[SPEECH_HEADERS.costMicros.toLowerCase()];
      if (payer && typeof cost === 'string' && /^\d+$/.test(cost)) costs.set(payer.email, costs.get(payer.email)! + BigInt(cost));
    },
    charged: () => costs,
    async verify(service) {
      const problems: string[] = [];
      for (const account of accounts) {
        // Settlement is asynchronous: wait (bounded) until nothing is reserved.
        let after = await wallet(baseUrl, account.key);
        for (let waited = 0; after.reservedMicros !== 0 && waited < 60_000; waited += 250) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          after = await wallet(baseUrl, account.key);
        }
        const start = before.get(account.email)!;
        const expected = BigInt(start.balanceMicros) - costs.get(account.email)!;
        if (after.reservedMicros !== 0) problems.push(`${account.email}: ${after.reservedMicros} micro-dollars still reserved after settlement drained`);
        if (BigInt(after.balanceMicros) !== expected) {
          problems.push(`${account.email}: balance ${after.balanceMicros}, expected ${expected} (start ${start.balanceMicros} minus ${costs.get(account.email)} charged in 200 answers)`);
        }
        const audit = await service.admin(['audit', '--email', account.email]);
        if (audit.consistent !== true || audit.pendingReservedMicros !== 0) problems.push(`${account.email}: admin audit reports ${JSON.stringify(audit)}`);
      }
      return problems;
    },
  };
}
