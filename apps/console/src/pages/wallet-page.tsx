// The selected account's wallet: balance, reserved (in-flight requests) and spendable, then the
// ledger rows newest first.
import type { ConsoleLedgerRow } from '../console-services.js';
import { formatMicros, formatSignedMicros } from '../money.js';
import { Layout, type Viewer } from './layout.js';
import { Notice, formatDate } from './components.js';

export interface WalletPageProps {
  viewer: Viewer;
  balanceMicros: number;
  reservedMicros: number;
  activity: ConsoleLedgerRow[];
  error?: string;
}

const kindLabels: Record<ConsoleLedgerRow['kind'], string> = {
  'top-up': 'Top-up',
  reserve: 'Reserved',
  commit: 'Charge',
  refund: 'Refund',
  void: 'Released',
};

/** Reserve and void rows move only the reserved amount, kept in metadata.amountMicros. */
function amountOf(row: ConsoleLedgerRow): number {
  if (row.microsDelta !== 0) return row.microsDelta;
  const amount = row.metadata.amountMicros;
  return typeof amount === 'number' ? amount : 0;
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div class="stat">
      <div class="label">{label}</div>
      <div class="value">{value}</div>
    </div>
  );
}

export function WalletPage(props: WalletPageProps) {
  const spendable = props.balanceMicros - props.reservedMicros;
  return (
    <Layout title="Wallet" viewer={props.viewer} section="wallet">
      <h1>Wallet of {props.viewer.account.name}</h1>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <div class="stats">
        <Stat label="Balance" value={formatMicros(props.balanceMicros)} />
        <Stat label="Reserved" value={formatMicros(props.reservedMicros)} />
        <Stat label="Spendable" value={formatMicros(spendable)} />
      </div>
      {props.viewer.billingEnabled ? <p><a href="/console/billing">Top up with a card</a></p> : null}
      <section class="card" aria-labelledby="activity-heading">
        <h2 id="activity-heading">Activity</h2>
        {props.activity.length === 0 ? (
          <p class="muted">No activity yet.</p>
        ) : (
          <div class="table-scroll">
            <table>
              <thead>
                <tr><th>Time</th><th>Kind</th><th class="number">Amount</th><th class="number">Balance after</th><th>Source</th><th>Request</th></tr>
              </thead>
              <tbody>
                {props.activity.map((row) => {
                  const moves = row.microsDelta !== 0;
                  const amount = amountOf(row);
                  return (
                    <tr>
                      <td class="small nowrap">{formatDate(row.createdAt)}</td>
                      <td>{kindLabels[row.kind] ?? row.kind}</td>
                      <td class={`number ${moves ? (amount > 0 ? 'positive' : 'negative') : 'muted'}`}>
                        {moves ? formatSignedMicros(amount) : `(${formatMicros(amount)})`}
                      </td>
                      <td class="number">{formatMicros(row.microsBalanceAfter)}</td>
                      <td class="small">{row.source}</td>
                      <td class="small">{row.reservationId ? <code title={row.reservationId}>{row.reservationId.slice(0, 8)}</code> : '—'}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
        <p class="muted small">Reserved and released rows hold money for a request in flight; they do not change the balance.</p>
      </section>
    </Layout>
  );
}
