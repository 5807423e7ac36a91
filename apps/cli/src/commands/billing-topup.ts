// `vr billing topup`: charges a saved card and the wallet is credited when the payment processor
// confirms. Every run sends one idempotency key (--idempotency-key to retry one safely).
import { randomUUID } from 'node:crypto';
import { JSON_HELP, JSON_OPTION, stringValue, type Command } from '../command.js';
import { ApiError, UsageError } from '../cli-errors.js';
import { expectData } from '../context.js';
import { formatMicros, parseUsdToMicros } from '../money.js';

const MIN_CENTS = 1_000;
const MAX_CENTS = 100_000;

/** "25" or "25.50" dollars → cents, within the server's bounds. */
export function topUpCents(text: string | undefined): number {
  if (text === undefined) throw new UsageError('--amount is required (USD, from 10 to 1000)', 'billing topup');
  let micros: number;
  try {
    micros = parseUsdToMicros(text);
  } catch (error) {
    throw new UsageError(`--amount: ${(error as Error).message}`, 'billing topup');
  }
  if (micros % 10_000 !== 0) throw new UsageError('--amount: use whole cents (at most two decimals)', 'billing topup');
  const cents = micros / 10_000;
  if (cents < MIN_CENTS || cents > MAX_CENTS) throw new UsageError(`--amount must be from $10.00 to $1,000.00, got ${formatMicros(micros)}`, 'billing topup');
  return cents;
}

export const billingTopUpCommand: Command = {
  name: 'billing topup',
  summary: 'Charge a saved card and add the money to the wallet',
  synopsis: 'billing topup --amount USD --card pm_… [--idempotency-key KEY] [--json]',
  help: [
    '--amount USD           how much, from 10 to 1000 (e.g. 25 or 25.50)',
    '--card pm_…            a saved card (see `vr billing methods`)',
    '--idempotency-key KEY  reuse the key a failed run printed to retry it without a second charge',
    JSON_HELP,
  ],
  options: { ...JSON_OPTION, amount: { type: 'string' }, card: { type: 'string' }, 'idempotency-key': { type: 'string' } },
  async run(context, { values }) {
    const cents = topUpCents(stringValue(values, 'amount'));
    const card = stringValue(values, 'card');
    if (!card || !/^pm_[A-Za-z0-9_]+$/.test(card)) throw new UsageError('--card pm_… is required (see `vr billing methods`)', 'billing topup');
    const key = stringValue(values, 'idempotency-key') ?? randomUUID();
    const { client, tokenKind } = context.api('session');
    let body;
    try {
      body = await expectData(client.POST('/v1/billing/topup', { body: { amount_cents: cents, payment_method_id: card, idempotency_key: key } }), tokenKind);
    } catch (error) {
      // When the outcome is unknown (no answer, a server failure, still in progress), the same key retries safely.
      const unknownOutcome = !(error instanceof ApiError) || error.status >= 500 || error.status === 409;
      if (unknownOutcome) context.note(`To retry without risking a second charge: vr billing topup --amount ${cents / 100} --card ${card} --idempotency-key ${key}`);
      throw error;
    }
    if (values.json) return context.printJson(body);
    context.print(`Charged ${formatMicros(body.amount_cents * 10_000)} to ${card} (payment ${body.payment_intent_id}).`);
    context.print('The wallet is credited when the payment processor confirms the payment, usually within seconds: see `vr credits`.');
  },
};
