// Card billing for the selected account: saved cards (added on the payment processor's own page),
// a top-up form, and the top-ups with their state. The form carries a fresh idempotency key, so
// submitting it twice (a double click, a reload) charges once.
import type { ConsoleBillingMethod, ConsoleTopUp } from '../console-services.js';
import { formatMicros } from '../money.js';
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Field, Notice, formatDate } from './components.js';

export interface TopUpFormValues {
  amount: string;
  paymentMethodId: string;
}

export interface BillingPageProps {
  viewer: Viewer;
  methods: ConsoleBillingMethod[];
  topUps: ConsoleTopUp[];
  idempotencyKey: string;
  form?: TopUpFormValues;
  notice?: string;
  error?: string;
}

export const formatCents = (cents: number) => formatMicros(cents * 10_000);

export function cardLabel(method: ConsoleBillingMethod): string {
  const brand = method.brand.charAt(0).toUpperCase() + method.brand.slice(1);
  return `${brand} ending ${method.last4} (expires ${String(method.expMonth).padStart(2, '0')}/${method.expYear})`;
}

const statusLabels: Record<ConsoleTopUp['status'], string> = {
  completed: 'Completed',
  pending: 'Pending',
  needs_authentication: 'Needs your confirmation',
  failed: 'Failed',
  canceled: 'Canceled',
};

function Cards({ viewer, methods }: { viewer: Viewer; methods: ConsoleBillingMethod[] }) {
  return (
    <section class="card" aria-labelledby="cards-heading">
      <h2 id="cards-heading">Saved cards</h2>
      {methods.length === 0 ? <p class="muted">No saved card yet.</p> : (
        <ul>
          {methods.map((method) => <li>{cardLabel(method)}</li>)}
        </ul>
      )}
      <form method="post" action="/console/billing/cards">
        <CsrfField token={viewer.csrfToken} />
        <button type="submit" class="secondary">Add a card</button>
      </form>
      <p class="muted small">You enter the card on Stripe’s page; this console never sees card numbers.</p>
    </section>
  );
}

function TopUpForm({ viewer, methods, form, idempotencyKey }: { viewer: Viewer; methods: ConsoleBillingMethod[]; form: TopUpFormValues; idempotencyKey: string }) {
  return (
    <section class="card" aria-labelledby="topup-heading">
      <h2 id="topup-heading">Top up the wallet</h2>
      {methods.length === 0 ? <p class="muted">Add a card first.</p> : (
        <form method="post" action="/console/billing/topup">
          <CsrfField token={viewer.csrfToken} />
          <input type="hidden" name="idempotency_key" value={idempotencyKey} />
          <div class="grid">
            <Field id="amount" label="Amount (USD)" value={form.amount} inputMode="decimal" required hint="From $10.00 to $1,000.00" />
            <div class="field">
              <label for="payment_method_id">Card</label>
              <select id="payment_method_id" name="payment_method_id">
                {methods.map((method) => <option value={method.id} selected={method.id === form.paymentMethodId}>{cardLabel(method)}</option>)}
              </select>
            </div>
          </div>
          <button type="submit">Top up</button>
        </form>
      )}
    </section>
  );
}

function TopUps({ topUps }: { topUps: ConsoleTopUp[] }) {
  return (
    <section class="card" aria-labelledby="topups-heading">
      <h2 id="topups-heading">Top-ups</h2>
      {topUps.length === 0 ? <p class="muted">No top-ups yet.</p> : (
        <div class="table-scroll">
          <table>
            <thead><tr><th>Time</th><th class="number">Amount</th><th>Status</th><th>Payment</th></tr></thead>
            <tbody>
              {topUps.map((topUp) => (
                <tr>
                  <td class="small nowrap">{formatDate(topUp.createdAt)}</td>
                  <td class="number">{formatCents(topUp.amountCents)}</td>
                  <td>
                    {statusLabels[topUp.status]}
                    {topUp.status === 'failed' && topUp.failureCode ? <span class="muted small"> ({topUp.failureCode})</span> : null}
                    {topUp.status === 'needs_authentication' ? (
                      <> · <a href={`/console/billing/authenticate/${encodeURIComponent(topUp.paymentIntentId)}`}>Confirm</a></>
                    ) : null}
                  </td>
                  <td class="small"><code>{topUp.paymentIntentId}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p class="muted small">Pending top-ups are charged; the wallet is credited when the payment processor confirms them.</p>
    </section>
  );
}

export function BillingPage(props: BillingPageProps) {
  const form = props.form ?? { amount: '', paymentMethodId: props.methods[0]?.id ?? '' };
  return (
    <Layout title="Billing" viewer={props.viewer} section="billing">
      <h1>Billing for {props.viewer.account.name}</h1>
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <Cards viewer={props.viewer} methods={props.methods} />
      <TopUpForm viewer={props.viewer} methods={props.methods} form={form} idempotencyKey={props.idempotencyKey} />
      <TopUps topUps={props.topUps} />
    </Layout>
  );
}
