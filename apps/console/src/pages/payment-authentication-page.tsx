// Finishing a payment the card's bank wants confirmed (3-D Secure): the page that sends the
// browser to the bank, and the one it comes back to.
import type { ConsolePendingPayment } from '../console-services.js';
import { Layout, type Viewer } from './layout.js';
import { CsrfField, Notice } from './components.js';
import { formatCents } from './billing-page.js';

export interface PaymentAuthenticationPageProps {
  viewer: Viewer;
  payment?: ConsolePendingPayment;
  /** After the bank: what happened. */
  outcome?: 'succeeded' | 'processing' | 'failed' | 'requires_action';
  error?: string;
}

function ContinueForm({ viewer, payment, label }: { viewer: Viewer; payment: ConsolePendingPayment; label: string }) {
  return (
    <form method="post" action={`/console/billing/authenticate/${encodeURIComponent(payment.paymentIntentId)}`}>
      <CsrfField token={viewer.csrfToken} />
      <button type="submit">{label}</button>
    </form>
  );
}

export function PaymentAuthenticationPage({ viewer, payment, outcome, error }: PaymentAuthenticationPageProps) {
  const amount = payment ? formatCents(payment.amountCents) : '';
  const done = outcome === 'succeeded' || outcome === 'processing' || (!outcome && (payment?.status === 'succeeded' || payment?.status === 'processing'));
  return (
    <Layout title="Confirm a payment" viewer={viewer} section="billing">
      <h1>Confirm a payment</h1>
      {error ? <Notice kind="error">{error}</Notice> : null}
      {payment && done ? (
        <Notice kind="success">
          Payment of {amount} confirmed. Your wallet is credited as soon as the payment processor confirms it, usually within seconds.
        </Notice>
      ) : null}
      {payment && !done && payment.status === 'canceled' ? <p>This payment was canceled. Start a new top-up from the Billing page.</p> : null}
      {payment && !done && payment.status !== 'canceled' ? (
        <section class="card">
          <p>
            Your bank wants you to confirm the top-up of <strong>{amount}</strong>{payment.card ? <> with your {payment.card}</> : null}.
            {outcome === 'requires_action' ? ' The confirmation was not finished.' : null}
          </p>
          <ContinueForm viewer={viewer} payment={payment} label={outcome === 'failed' ? 'Try again' : 'Continue to your bank'} />
          <p class="muted small">After this confirmation the card normally works for later top-ups without asking again.</p>
        </section>
      ) : null}
      <p><a href="/console/billing">Back to billing</a></p>
    </Layout>
  );
}
