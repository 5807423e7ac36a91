// The router's own records of card billing: each account's Stripe customer, and the top-ups it
// started (with Stripe's last known status). A top-up counts as credited when the ledger holds
// the webhook's row for its PaymentIntent.
import type { SqlClient } from '../sql-client.js';

export const paymentIntentCreditKey = (paymentIntentId: string) => `stripe:payment_intent:${paymentIntentId}`;

export async function findBillingCustomer(sql: SqlClient, accountId: string): Promise<string | undefined> {
  const rows = await sql.query<{ stripe_customer_id: string }>(
    `SELECT stripe_customer_id FROM billing_customers WHERE account_id = $1::uuid`,
    [accountId],
  );
  return rows[0]?.stripe_customer_id;
}

/**
 * Stores the account's customer unless one is stored already; returns the one stored. The conflict has no
 * target, so every unique index is an arbiter: two saves of the same pair at once meet on the customer id's
 * index as well as on the account's, and with `ON CONFLICT (account_id)` the second failed with a unique
 * violation instead of doing nothing.
 */
export async function saveBillingCustomer(sql: SqlClient, accountId: string, stripeCustomerId: string): Promise<string> {
  await sql.query(
    `INSERT INTO billing_customers (account_id, stripe_customer_id) VALUES ($1::uuid, $2) ON CONFLICT DO NOTHING`,
    [accountId, stripeCustomerId],
  );
  const stored = await findBillingCustomer(sql, accountId);
  if (stored === undefined) throw new Error('this Stripe customer is already stored for another account');
  return stored;
}

export async function findAccountByBillingCustomer(sql: SqlClient, stripeCustomerId: string): Promise<string | undefined> {
  const rows = await sql.query<{ account_id: string }>(
    `SELECT account_id FROM billing_customers WHERE stripe_customer_id = $1`,
    [stripeCustomerId],
  );
  return rows[0]?.account_id;
}

export type TopUpStatus = 'succeeded' | 'processing' | 'requires_action' | 'requires_payment_method' | 'canceled';

export interface TopUpRecord {
  paymentIntentId: string;
  accountId: string;
  amountCents: number;
  paymentMethodId: string | null;
  status: TopUpStatus;
  failureCode: string | null;
  createdAt: Date;
  /** The wallet has been credited for it (by the webhook). */
  credited: boolean;
}

/**
 * Inserts or updates a top-up. Webhooks may arrive late, twice or out of order, so a final status
 * (succeeded, canceled) is never overwritten by an earlier one.
 */
export async function recordTopUp(sql: SqlClient, input: {
  paymentIntentId: string; accountId: string; amountCents: number; paymentMethodId: string | null; status: TopUpStatus; failureCode: string | null;
}): Promise<void> {
  await sql.query(
    `INSERT INTO top_ups (id, account_id, amount_cents, payment_method_id, status, failure_code)
     VALUES ($1, $2::uuid, $3::int, $4, $5, $6)
     ON CONFLICT (id) DO UPDATE SET
       status = EXCLUDED.status,
       failure_code = EXCLUDED.failure_code,
       payment_method_id = coalesce(EXCLUDED.payment_method_id, top_ups.payment_method_id),
       updated_at = now()
     WHERE top_ups.status NOT IN ('succeeded', 'canceled')`,
    [input.paymentIntentId, input.accountId, input.amountCents, input.paymentMethodId, input.status, input.failureCode],
  );
}

type TopUpRow = {
  id: string; account_id: string; amount_cents: number; payment_method_id: string | null; status: TopUpStatus;
  failure_code: string | null; created_at: Date | string; credited: boolean;
};

const SELECT_TOP_UPS = `
  SELECT t.id, t.account_id, t.amount_cents, t.payment_method_id, t.status, t.failure_code, t.created_at,
         EXISTS (SELECT 1 FROM ledger_entries e WHERE e.idempotency_key = 'stripe:payment_intent:' || t.id) AS credited
  FROM top_ups t`;

function mapTopUp(row: TopUpRow): TopUpRecord {
  return {
    paymentIntentId: row.id, accountId: row.account_id, amountCents: Number(row.amount_cents), paymentMethodId: row.payment_method_id,
    status: row.status, failureCode: row.failure_code, createdAt: new Date(row.created_at), credited: Boolean(row.credited),
  };
}

export async function findTopUp(sql: SqlClient, paymentIntentId: string): Promise<TopUpRecord | undefined> {
  const rows = await sql.query<TopUpRow>(`${SELECT_TOP_UPS} WHERE t.id = $1`, [paymentIntentId]);
  return rows[0] && mapTopUp(rows[0]);
}

/** Newest first. */
export async function listTopUps(sql: SqlClient, accountId: string, limit: number): Promise<TopUpRecord[]> {
  const rows = await sql.query<TopUpRow>(`${SELECT_TOP_UPS} WHERE t.account_id = $1::uuid ORDER BY t.created_at DESC, t.id LIMIT $2::int`, [accountId, limit]);
  return rows.map(mapTopUp);
}
